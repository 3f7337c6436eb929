/**
 * The settings pages' styles (channels, groups, projects, keys; and the sign-in panels' parts): appended to the console's stylesheet,
 * one file, one hash (see assets.ts).
 */
export const SETTINGS_CSS = `
/* A table whose rows become stacked cards on a phone, each cell under its column's name: never wider than the page. */
table.stack-table { width: 100%; }
table.stack-table td { vertical-align: top; overflow-wrap: anywhere; }
.config-value { overflow-wrap: anywhere; }
/* A heading further down a sign-in panel (the invitation page's "Have an account?") starts a new part. */
.signin .panel * + h2 { margin-top: 24px; }
/* API keys: names and scopes break between words on a wide screen (the table scrolls if it must), anywhere only as cards. */
@media (min-width: 761px) { table.keys-table td { overflow-wrap: normal; } }
ul.config-fields { flex-direction: column; gap: 2px; }
@media (max-width: 760px) {
  table.stack-table, table.stack-table tbody, table.stack-table tr, table.stack-table td { display: block; width: 100%; }
  table.stack-table thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  table.stack-table tr { border: 1px solid var(--line); border-radius: var(--radius); padding: 8px 12px; margin: 0 0 12px; background: var(--panel); }
  table.stack-table td { border: 0; padding: 4px 0; }
  table.stack-table td[data-label]::before { content: attr(data-label); display: block; font-size: 0.8rem; font-weight: 700; color: var(--muted); }
  table.stack-table td.row-actions { display: flex; flex-wrap: wrap; gap: 8px; padding-top: 8px; }
  table.stack-table td.row-actions > * + * { margin-left: 0; }
  .settings-tabs a { padding: 6px 8px; }
}
ul.type-choices { list-style: none; margin: 0; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); gap: 12px; }
.type-choice { display: flex; flex-direction: column; justify-content: space-between; gap: 8px; border: 1px solid var(--line); border-radius: var(--radius); padding: 12px 14px; }
.type-choice .hint { margin: 4px 0 0; }
.type-choice .button { align-self: flex-start; }
.type-unavailable { background: #f1f3f6; }
.type-does { margin: 0 0 14px; }
ul.group-cards { list-style: none; margin: 0; padding: 0; display: grid; gap: 12px; }
.group-card { border: 1px solid var(--line); border-radius: var(--radius); padding: 12px 16px; }
.group-card-head { display: flex; justify-content: space-between; align-items: center; gap: 8px; flex-wrap: wrap; }
.group-card h3 { margin: 0; font-size: 1.05rem; }
ul.check-list { list-style: none; margin: 4px 0; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); gap: 6px 18px; }
ul.check-list li { display: flex; gap: 8px; align-items: center; }
ul.check-list label { font-weight: 400; overflow-wrap: anywhere; }
ul.check-list.day-list { grid-template-columns: repeat(auto-fill, minmax(120px, 1fr)); }
fieldset.quiet-days { border: 0; padding: 0; margin: 8px 0; }
fieldset.quiet-days legend, .time-row label { font-weight: 600; }
.time-row { display: flex; flex-wrap: wrap; gap: 10px 18px; align-items: flex-end; }
.time-row > div { display: flex; flex-direction: column; gap: 4px; min-width: 0; }
.time-row input[type=text] { max-width: 100%; }
ul.rotation-choices { list-style: none; margin: 4px 0; padding: 0; display: grid; gap: 6px; }
ul.rotation-choices li { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
ul.rotation-choices label { font-weight: 400; overflow-wrap: anywhere; flex: 1 1 12em; }
input.order-input { width: 5em; min-width: 0; flex: none; }
.quiet-hours input[type=time], .schedule-form input[type=time], .schedule-form input[type=date] {
  font: inherit; padding: 7px 10px; border: 1px solid #8d96a7; border-radius: 6px; background: #fff; color: var(--ink); max-width: 100%;
}
.quiet-hours input[type=time]:focus, .schedule-form input[type=time]:focus, .schedule-form input[type=date]:focus { outline: 3px solid var(--focus); outline-offset: 0; border-color: var(--ink); }
.override-row { display: flex; flex-wrap: wrap; gap: 8px 14px; margin: 0 0 10px; }
.override-row > div { display: flex; flex-direction: column; gap: 4px; min-width: 0; flex: 1 1 10em; }
.override-row label { font-weight: 400; }
dl.on-call-now { display: grid; grid-template-columns: repeat(auto-fit, minmax(220px, 1fr)); gap: 12px; margin: 12px 0 18px; }
dl.on-call-now > div { border: 1px solid var(--line); border-radius: var(--radius); padding: 10px 12px; }
dl.on-call-now dt { font-weight: 600; margin-bottom: 4px; }
dl.on-call-now dd { margin: 0; }
dl.on-call-now .monitor-slug, table .monitor-slug { display: block; }
ul.loss-list { margin: 8px 0 14px; padding-left: 22px; }
ul.loss-list li + li { margin-top: 6px; }
.danger-panel h2 { color: var(--down); }
.field-error input, .field-error textarea, .field-error select { border: 2px solid var(--down); }
textarea { max-width: 100%; }
/* A long URL in a copy row scrolls inside its own box; one in a sentence wraps: neither widens the page. */
.copy-row code { min-width: 0; }
@media (max-width: 760px) {
  .copy-row code { white-space: normal; overflow-wrap: anywhere; overflow: visible; }
}
p code, li code { overflow-wrap: anywhere; }
@media (max-width: 760px) {
  input[type=password] { min-width: 0; width: 100%; }
  .form-actions { flex-wrap: wrap; }
}
`;
