// The script that starts Swagger UI on /docs (a file, so the page's CSP needs no 'unsafe-inline'); its
// plugin mends components whose markup breaks WCAG 2.1 A (e2e/openapi.test.ts runs axe-core on the page).
import { DOCUMENT_PATH } from "./openapi.document.ts";

// - validatorUrl null: Swagger UI would otherwise send the document to an outside validator.
// - syntaxHighlight "obsidian": the default theme draws numbers red on grey at 3.4:1.
// - DeepLink: a link inside the operation's button (axe: nested-interactive); deepLinking still works.
// - ServersContainer: its <select> has no name (axe: select-name); the document's one server is named.
// - License: Swagger UI links the identifier to spdx.org, where LicenseRef-Proprietary has no page.
// - JsonSchema_string/_boolean/_array: a list of values is a <select> without a name (axe: select-name).
// - TextArea: the request body's editor has no name (axe: label).
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
