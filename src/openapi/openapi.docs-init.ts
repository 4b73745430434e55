// The script that starts Swagger UI on /docs (served as a file, so that the page's CSP needs no
// 'unsafe-inline' for scripts). Besides the options, a small plugin replaces a few of Swagger UI's
// components, mostly where their markup breaks WCAG 2.1 A, which no stylesheet can mend.
// e2e/openapi.test.ts runs axe-core on the rendered page.
import { DOCUMENT_PATH } from "./openapi.document.ts";

// Why each part is there:
// - validatorUrl null: Swagger UI would otherwise send the document to an outside validator.
// - displayOperationId: shows each operation's id, the method name that generated clients use.
// - syntaxHighlight "obsidian": the default theme ("agate") draws numbers red on grey at 3.4:1.
// - DeepLink: an operation's path is a link inside the button that opens the operation, a control
//   inside a control (axe: nested-interactive). It is plain text here; with deepLinking on, the
//   address bar still follows the open operation, so links to operations keep working.
// - ServersContainer: its <select> has no accessible name (axe: select-name). The document names one
//   server, this deployment, so the page names it instead; with no server selected, requests go to
//   the document's first server.
// - License: Swagger UI links a licence identifier to spdx.org, where the document's
//   "LicenseRef-Proprietary" has no page (and the page should lead nowhere else); its name instead.
// - JsonSchema_string/_boolean/_array: a parameter with a list of values is a <select> without a
//   name (axe: select-name). It is wrapped in a <label> that says which parameter it sets.
// - TextArea: the request body's editor in "Try it out" has no name (axe: label); it gets one.
export const DOCS_INIT_JS = `"use strict";
function accessible({ React }) {
  const h = React.createElement;
  const isSelect = (schema) =>
    !!schema && typeof schema.get === "function" &&
    (!!schema.get("enum") || schema.get("type") === "boolean" || !!(schema.getIn && schema.getIn(["items", "enum"])));
  const named = (Original) => (props) => {
    const field = h(Original, props);
    if (!isSelect(props.schema)) return field;
    return h("label", null, h("span", { className: "a11y-hidden" }, props.description || "Value"), field);
  };
  return {
    wrapComponents: {
      DeepLink: () => (props) => h("span", null, props.text),
      ServersContainer: (_original, system) => () => {
        const server = system.specSelectors.servers().first();
        return server ? h("p", { className: "servers-title" }, "Server: ", h("code", null, server.get("url"))) : null;
      },
      License: (_original, system) => () =>
        h("div", { className: "info__license" }, "Licence: ", system.specSelectors.selectLicenseNameField()),
      TextArea: (Original) => (props) =>
        h(Original, String(props.className).includes("body-param__text") ? { "aria-label": "Request body", ...props } : props),
      JsonSchema_string: named,
      JsonSchema_boolean: named,
      JsonSchema_array: named,
    },
  };
}
window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(DOCUMENT_PATH)},
  dom_id: "#swagger-ui",
  deepLinking: true,
  displayOperationId: true,
  validatorUrl: null,
  syntaxHighlight: { theme: "obsidian" },
  presets: [SwaggerUIBundle.presets.apis],
  plugins: [accessible],
  layout: "BaseLayout",
});
`;
