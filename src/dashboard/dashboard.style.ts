// The dashboard's one stylesheet (inline, CSP nonce): high contrast, focus rings, status in words, not colour alone.
export const STYLE = `
:root { color-scheme: light; --fg: #1a1a1a; --muted: #4a4a4a; --line: #c8c8c8; --bg: #fff; --panel: #f4f5f7;
  --accent: #0b57d0; --danger: #a50e0e; --ok: #0d652d; --warn: #7a4a00; --focus: #ffbf47; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif;
  color: var(--fg); background: var(--bg); }
header.top { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; justify-content: space-between;
  padding: .75rem 1.5rem; border-bottom: 1px solid var(--line); background: var(--panel); }
header.top h1 { font-size: 1.35rem; margin: 0; }
main { max-width: 100rem; margin: 0 auto; padding: 1rem 1.5rem 3rem; }
h2 { font-size: 1.15rem; margin: 1.75rem 0 .5rem; }
p { margin: .5rem 0; }
.hint { color: var(--muted); font-size: .95rem; }
.intro { margin-bottom: 1rem; }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, [tabindex]:focus-visible {
  outline: 3px solid var(--fg); outline-offset: 2px; box-shadow: 0 0 0 6px var(--focus); }
label { font-weight: 600; display: block; margin-bottom: .25rem; }
input, select { font: inherit; padding: .45rem .55rem; border: 1px solid #6b6b6b; border-radius: 4px;
  background: #fff; color: var(--fg); }
input[aria-invalid="true"] { border: 2px solid var(--danger); }
button { font: inherit; font-weight: 600; padding: .45rem .9rem; border-radius: 4px; cursor: pointer;
  border: 1px solid var(--accent); background: var(--accent); color: #fff; }
button.secondary { background: #fff; color: var(--accent); }
button.danger { background: #fff; color: var(--danger); border-color: var(--danger); }
button:hover { filter: brightness(.92); }
.login { max-width: 26rem; margin: 4rem auto; padding: 1.5rem; border: 1px solid var(--line); border-radius: 8px; }
.login h1 { font-size: 1.4rem; margin-top: 0; }
.login input { width: 100%; margin-bottom: 1rem; }
.row { display: flex; flex-wrap: wrap; gap: 1rem 1.5rem; align-items: flex-end; }
.row > div { min-width: 10rem; }
fieldset { border: 0; padding: 0; margin: 0; }
legend { font-weight: 600; padding: 0; margin-bottom: .25rem; }
.choices { display: flex; align-items: center; min-height: calc(1.5em + .9rem + 2px); }
.choice { display: inline-flex; gap: .35rem; align-items: center; margin-right: 1rem; font-weight: 400; }
.choice input { margin: 0; }
.panel { padding: 1rem 1.25rem; border: 1px solid var(--line); border-radius: 8px; background: var(--panel); }
.panel h2 { margin-top: 0; }
.alert { padding: .75rem 1rem; border-radius: 6px; border-left: 6px solid var(--danger); background: #fdecea; margin: 1rem 0; }
.notice { padding: .75rem 1rem; border-radius: 6px; border-left: 6px solid var(--ok); background: #e6f4ea; margin: 1rem 0; }
.secret { border: 2px solid var(--warn); background: #fff8e1; padding: 1rem 1.25rem; border-radius: 8px; margin: 1rem 0; }
.secret h2 { margin-top: 0; }
.secret input { width: 100%; max-width: 40rem; font-family: ui-monospace, "Cascadia Mono", Menlo, Consolas, monospace; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: .95rem; }
caption { text-align: left; color: var(--muted); padding-bottom: .35rem; }
th, td { text-align: left; vertical-align: top; padding: .55rem .6rem; border-bottom: 1px solid var(--line); }
thead th { background: var(--panel); }
code { font-family: ui-monospace, "Cascadia Mono", Menlo, Consolas, monospace; font-size: .9rem; }
.status { font-weight: 600; white-space: nowrap; }
.status-active { color: var(--ok); } .status-grace { color: var(--warn); }
.status-expired, .status-revoked { color: var(--danger); }
.status-pending { color: var(--warn); } .status-used { color: var(--ok); }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; align-items: flex-end; }
.actions form { display: flex; gap: .4rem; align-items: flex-end; flex-wrap: wrap; }
.actions label { font-weight: 400; font-size: .85rem; margin: 0; }
.actions select, .actions button { padding: .3rem .5rem; }
.vh { position: absolute !important; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
  clip-path: inset(50%); white-space: nowrap; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.chart { display: block; }
.chart-none { display: block; font-size: .85rem; }
.chart-bar { fill: var(--accent); }
.chart-axis { stroke: #6b6b6b; stroke-width: 1; }
.agent-search { flex-basis: 100%; }
.agent-search input { min-width: 18rem; }
.agent-search .hint { margin: .25rem 0 0; }
fieldset.agents { flex-basis: 100%; }
.agent-list { display: flex; flex-direction: column; gap: .2rem; }
table.audit th, table.audit td:first-child { white-space: nowrap; }
table.audit code { overflow-wrap: anywhere; }
table.keys { table-layout: fixed; }
table.keys th, table.keys td { padding: .5rem .45rem; overflow-wrap: anywhere; }
col.c-select { width: 2.5rem; } col.c-name { width: 11%; } col.c-key { width: 10.5rem; } col.c-agent { width: 10%; }
col.c-access { width: 6.5rem; } col.c-status { width: 12%; } col.c-used { width: 6.5rem; } col.c-requests { width: 8.75rem; }
col.c-actions { width: 11rem; }
table.keys .hint { font-size: .85rem; }
table.keys .detail { display: block; }
table.keys .figures { display: block; white-space: nowrap; font-size: .85rem; }
.num { font-variant-numeric: tabular-nums; }
.counts { font-weight: 600; }
.filters { margin: .75rem 0 1rem; }
.filters > div { min-width: 0; }
.filters select { max-width: 16rem; }
.filters .clear { align-self: center; }
.pager { display: flex; flex-wrap: wrap; gap: .5rem 1.25rem; align-items: center; margin: .75rem 0; }
.pager .off { color: var(--muted); }
table.keys .status { display: inline-block; }
.rotation-due, .status-warn { color: var(--warn); } .rotation-rotated { color: var(--ok); } .rotation-rolled { color: var(--muted); }
.late { margin-top: .35rem; padding: .35rem .5rem; border-left: 4px solid var(--danger); background: #fdecea; font-size: .85rem; }
.late button { margin-top: .3rem; padding: .3rem .5rem; }
.rotation-actions { margin: 0 0 1rem; gap: .5rem 1rem; align-items: center; }
.rotation-actions .hint { flex-basis: 100%; margin: 0; }
.qr { display: block; width: 16rem; height: 16rem; background: #fff; margin: .75rem 0; }
.code { font: 700 1.6rem/1.2 ui-monospace, "Cascadia Mono", Menlo, Consolas, monospace; letter-spacing: .08em; }
input, select { max-width: 100%; }
/* A phone: the tables become one card a row, each cell under its column's name (data-label), and nothing
   is wider than the screen. */
@media (max-width: 48rem) {
  header.top { padding: .6rem .75rem; }
  main { padding: .75rem .75rem 2rem; }
  .panel { padding: .75rem; }
  .row > div { min-width: 0; flex: 1 1 100%; }
  .row input[type="text"], .row input[type="search"], .agent-search input { min-width: 0; width: 100%; }
  .choices { flex-wrap: wrap; }
  .table-wrap { overflow-x: visible; }
  .table-wrap table, .table-wrap tbody, .table-wrap tr, .table-wrap th, .table-wrap td { display: block; width: auto; }
  .table-wrap colgroup { display: none; }
  .table-wrap thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
  .table-wrap caption { display: block; }
  .table-wrap tr { border: 1px solid var(--line); border-radius: 8px; margin: 0 0 .75rem; padding: .5rem .75rem; }
  .table-wrap tbody th { font-size: 1.05rem; padding: .15rem 0 .35rem; border: 0; overflow-wrap: anywhere; }
  .table-wrap tbody td { display: flow-root; padding: .3rem 0 .3rem 7.25rem; border: 0; overflow-wrap: anywhere; }
  .table-wrap tbody td[data-label]::before { content: attr(data-label); float: left; margin: .1rem 0 0 -7.25rem;
    width: 6.75rem; font-weight: 600; color: var(--muted); font-size: .85rem; line-height: 1.3; }
  .table-wrap tbody td:empty { display: none; }
  .table-wrap tbody td:not([data-label]) { padding-left: 0; }
  .table-wrap tbody .status { display: block; width: fit-content; }
  table.audit th, table.audit td:first-child { white-space: normal; }
  .code { font-size: 1.25rem; letter-spacing: .04em; overflow-wrap: anywhere; }
  .qr { width: 100%; max-width: 16rem; height: auto; aspect-ratio: 1; }
}
@media (prefers-reduced-motion: no-preference) { button { transition: filter .1s; } }
`;
