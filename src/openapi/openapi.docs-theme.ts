// After Swagger UI's stylesheet: darker shades of colours failing WCAG 2.1 AA contrast (e2e/openapi.test.ts).
export const DOCS_THEME_CSS = `/* Version badges: white text on grey and on light green. */
.swagger-ui .info .title small { background: #5b616d; }
.swagger-ui .info .title small.version-stamp { background-color: #3d6b00; }

/* Links in the header (the document's URL, the licence) and the Authorize button. */
.swagger-ui .info a, .swagger-ui .info .url { color: #1d5fb4; }
.swagger-ui .btn.authorize { border-color: #17804f; color: #17804f; }
.swagger-ui .btn.authorize svg { color: #17804f; fill: #17804f; }

/* The method badges: white text on each method's colour. */
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #1f69c0; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #17804f; }
.swagger-ui .opblock.opblock-put .opblock-summary-method { background: #9c5700; }
.swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #c62828; }
.swagger-ui .opblock.opblock-patch .opblock-summary-method { background: #0f7663; }
.swagger-ui .opblock.opblock-head .opblock-summary-method { background: #7a3fc8; }

/* Small grey text: where a parameter goes, and the schemas' "Expand all" buttons. */
.swagger-ui .parameter__in, .swagger-ui .parameter__extension { color: #595959; }
.swagger-ui .json-schema-2020-12-expand-deep-button { color: #505050; }

/* Try it out: Cancel (red on white), Execute (white on blue), and an answer's Download (white on grey). */
.swagger-ui .btn.cancel { border-color: #c62828; color: #c62828; }
.swagger-ui .btn.execute { background-color: #1d5fb4; border-color: #1d5fb4; }
.swagger-ui .download-contents { background: #5b616d; }

/* Examples wrap instead of scrolling: a scrolling box must take the keyboard focus (WCAG 2.1.1),
   which Swagger UI does not give it. */
.swagger-ui .highlight-code > .microlight { max-height: none; overflow: visible; white-space: pre-wrap; word-break: break-word; }

/* The name of a parameter's list of values (docs-init.ts): for screen readers, not drawn. */
.swagger-ui .a11y-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;
