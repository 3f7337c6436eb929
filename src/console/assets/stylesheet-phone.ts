/**
 * What keeps every page usable at 390 px and at 1280 px without sideways scrolling of the page,
 * appended last to the console's stylesheet (assets.ts), so it wins over what came before.
 */
export const PHONE_CSS = `
/* A long value (a URL, a key, a command) wraps rather than scrolls: a region that scrolls by itself
   cannot be reached by keyboard, and a phone cannot show it whole. */
.copy-row code, .copy-row pre.crontab { overflow-x: visible; white-space: pre-wrap; overflow-wrap: anywhere; min-width: 0; }
.copy-row { flex-wrap: wrap; }
/* A table wider than its panel scrolls inside its frame, never the page (the frame is the
   containing block of what is positioned in it, a visually hidden caption too); its cells wrap first
   (a long word only where nothing else fits), and a row's actions take their width before the
   text around them, so a button is never the part cut off. */
.table-wrap { max-width: 100%; position: relative; }
td { overflow-wrap: break-word; }
td.row-actions { width: 1%; white-space: nowrap; }
/* A time or a date kept on one line when there is room, on two when the row would not fit otherwise
   (auto table layout wraps a cell only when the table needs it). */
.table-wrap td.nowrap, .table-wrap td time { white-space: normal; }
td .button, td button { white-space: nowrap; }
@media (max-width: 1100px) { th, td { padding-left: 10px; padding-right: 10px; } }
main { min-width: 0; }
/* A fieldset is as wide as its widest content unless told otherwise: a date field would push it out. */
fieldset { min-width: 0; max-width: 100%; }
input, select, textarea { max-width: 100%; }
.grid-2 { grid-template-columns: repeat(auto-fit, minmax(min(340px, 100%), 1fr)); }
.grid-incident { grid-template-columns: minmax(min(300px, 100%), 2fr) 3fr; }
pre, code { max-width: 100%; }
/* A URL or a host in a sentence breaks where it must rather than push the page wider. */
.lede, .panel p, .hint, code, .notice, .error-summary { overflow-wrap: anywhere; }
/* White on the day's colour, readable (4.5:1 at least). */
.day-good { background: #1d7a43; }
.day-some { background: #946200; }
@media (max-width: 760px) {
  /* On a phone a table's cells wrap, times and headings too, before the table needs to scroll. */
  td, th, td time, td .nowrap, thead th { white-space: normal; overflow-wrap: anywhere; }
  td.row-actions { overflow-wrap: normal; }
  .grid-incident { grid-template-columns: minmax(0, 1fr); }
  .page-head > div { min-width: 0; }
  h1 { overflow-wrap: anywhere; }
  .summary-cards li { min-width: 0; flex: 1 1 90px; }
  .topbar .who { flex-wrap: wrap; gap: 6px 12px; }
  .topbar .who span { overflow-wrap: anywhere; }
  .status-monitor { padding: 14px 14px 12px; }
  .status-incident-head, .status-monitor-head { flex-wrap: wrap; }
}
`;
