/**
 * What keeps every page usable at 390 px and at 1280 px without sideways scrolling of the page,
 * appended last to the console's stylesheet (assets.ts), so it wins over what came before.
 */
export const PHONE_CSS = `
/* A long value (a URL, a key, a command) wraps rather than scrolls: a region that scrolls by itself
   cannot be reached by keyboard, and a phone cannot show it whole. */
.copy-row code, .copy-row pre.crontab { overflow-x: visible; white-space: pre-wrap; overflow-wrap: anywhere; min-width: 0; }
.copy-row { flex-wrap: wrap; }
/* A table wider than its panel scrolls inside its frame, never the page; its cells wrap first. */
.table-wrap { max-width: 100%; }
td { overflow-wrap: anywhere; }
td .button, td button, .row-actions { white-space: nowrap; }
main { min-width: 0; }
.grid-2 { grid-template-columns: repeat(auto-fit, minmax(min(340px, 100%), 1fr)); }
.grid-incident { grid-template-columns: minmax(min(300px, 100%), 2fr) 3fr; }
pre, code { max-width: 100%; }
@media (max-width: 760px) {
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
