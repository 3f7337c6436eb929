/** The console's stylesheet, served as /console/assets/console.<hash>.css (see assets.ts). */
export const CONSOLE_CSS = `
:root {
  --ink: #1d2330;
  --muted: #5b6475;
  --line: #dfe3ea;
  --panel: #ffffff;
  --page: #f4f6f9;
  --brand: #23408e;
  --link: #1f4fbf;
  --focus: #ffbf47;
  --up: #0b7a3e;
  --up-bg: #e3f5ea;
  --down: #b42318;
  --down-bg: #fde8e6;
  --paused: #5b6475;
  --paused-bg: #eceef2;
  --waiting: #8a5300;
  --waiting-bg: #fff3d6;
  --radius: 8px;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  font-size: 15px;
  line-height: 1.5;
  color: var(--ink);
  background: var(--page);
}
* { box-sizing: border-box; }
body { margin: 0; }
a { color: var(--link); text-underline-offset: 2px; }
a:hover { text-decoration-thickness: 2px; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 1px; }
code, pre, kbd { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; }
.visually-hidden { position: absolute !important; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.muted { color: var(--muted); }
.skip-link { position: absolute; left: -999px; top: 0; background: var(--focus); color: var(--ink); padding: 8px 12px; z-index: 10; }
.skip-link:focus { left: 8px; }

.topbar { background: var(--brand); color: #fff; }
.topbar-inner { max-width: 1200px; margin: 0 auto; padding: 10px 24px; display: flex; align-items: center; gap: 16px; flex-wrap: wrap; }
.brand { color: #fff; font-weight: 700; font-size: 1.15rem; text-decoration: none; letter-spacing: 0.02em; display: inline-flex; align-items: center; gap: 8px; }
.brand-mark { width: 22px; height: 22px; }
.topbar .who { margin-left: auto; display: flex; align-items: center; gap: 12px; font-size: 0.92rem; }
.topbar .who form { margin: 0; }
.topbar .who-account { color: #fff; }
.account-section { margin-bottom: 20px; }
.account-section h2 { margin-top: 0; }
.account-section form, .signin form { max-width: 36rem; }
.account-section > .hint, .signin-key > .hint { margin: 0 0 14px; }
.account-section .user-agent { max-width: 28ch; overflow-wrap: anywhere; font-size: 0.85rem; }
/* A visually hidden header's box is positioned against the wrap, not the page, so it never widens the page. */
.account-section .table-wrap { position: relative; }
.account-section .inline-form .button { white-space: nowrap; }
.button-quiet-light { background: transparent; color: #fff; border: 1px solid rgba(255,255,255,0.6); border-radius: 6px; padding: 4px 12px; font: inherit; cursor: pointer; }
.button-quiet-light:hover { background: rgba(255,255,255,0.12); }

main { max-width: 1200px; margin: 0 auto; padding: 20px 24px 48px; }
.breadcrumbs { font-size: 0.9rem; color: var(--muted); margin: 0 0 8px; padding: 0; list-style: none; display: flex; flex-wrap: wrap; gap: 6px; }
.breadcrumbs li + li::before { content: "/"; margin-right: 6px; color: #9aa3b2; }
h1 { font-size: 1.6rem; line-height: 1.25; margin: 0 0 4px; display: flex; align-items: center; gap: 12px; flex-wrap: wrap; }
h2 { font-size: 1.15rem; margin: 0 0 12px; }
.lede { color: var(--muted); margin: 0 0 20px; }
.page-head { display: flex; align-items: flex-start; justify-content: space-between; gap: 16px; flex-wrap: wrap; margin-bottom: 16px; }
.page-head .actions { display: flex; gap: 8px; flex-wrap: wrap; }
.page-head .actions form { margin: 0; }

.panel { background: var(--panel); border: 1px solid var(--line); border-radius: var(--radius); padding: 18px 20px; margin-bottom: 20px; }
.panel > h2:first-child { margin-top: 0; }
.grid-2 { display: grid; grid-template-columns: repeat(auto-fit, minmax(340px, 1fr)); gap: 20px; align-items: start; margin-bottom: 20px; }
.grid-incident { grid-template-columns: minmax(300px, 2fr) 3fr; }
.grid-2 > .panel { margin-bottom: 0; }
.stack > * + * { margin-top: 20px; }

.summary-cards { display: flex; gap: 12px; flex-wrap: wrap; margin: 0 0 16px; padding: 0; list-style: none; }
.summary-cards li { background: var(--panel); border: 1px solid var(--line); border-radius: var(--radius); padding: 8px 14px; min-width: 110px; }
.summary-cards .count { font-size: 1.35rem; font-weight: 700; display: block; }
.summary-cards .card-down .count { color: var(--down); }
.summary-cards .card-up .count { color: var(--up); }
.summary-cards .label { color: var(--muted); font-size: 0.85rem; }

.status { display: inline-flex; align-items: center; gap: 6px; border-radius: 999px; padding: 2px 10px 2px 8px; font-size: 0.8rem; font-weight: 700; letter-spacing: 0.03em; white-space: nowrap; border: 1px solid transparent; }
.status::before { content: ""; display: inline-block; width: 8px; height: 8px; border-radius: 50%; background: currentColor; }
.status-up { color: var(--up); background: var(--up-bg); border-color: #b5e2c6; }
.status-down { color: var(--down); background: var(--down-bg); border-color: #f5b8b1; }
.status-down::before { border-radius: 1px; transform: rotate(45deg); }
.status-paused { color: var(--paused); background: var(--paused-bg); border-color: #d3d7de; }
.status-paused::before { width: 7px; border-radius: 0; background: none; border-left: 2px solid currentColor; border-right: 2px solid currentColor; }
.status-waiting { color: var(--waiting); background: var(--waiting-bg); border-color: #f0d58c; }
.status-waiting::before { background: none; border: 2px solid currentColor; }
.status-deleted { color: var(--paused); background: var(--paused-bg); border-color: #d3d7de; }
.status-deleted::before { background: none; border: 2px solid currentColor; border-radius: 1px; }
.status-open { color: var(--down); background: var(--down-bg); border-color: #f5b8b1; }
.status-acknowledged { color: var(--waiting); background: var(--waiting-bg); border-color: #f0d58c; }
.status-resolved { color: var(--up); background: var(--up-bg); border-color: #b5e2c6; }

.table-wrap { overflow-x: auto; background: var(--panel); border: 1px solid var(--line); border-radius: var(--radius); }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 10px 14px; border-bottom: 1px solid var(--line); vertical-align: middle; }
thead th { font-size: 0.78rem; text-transform: uppercase; letter-spacing: 0.05em; color: var(--muted); background: #fafbfc; white-space: nowrap; }
tbody tr:last-child td { border-bottom: 0; }
tbody tr:hover { background: #f8f9fb; }
td time, .nowrap { white-space: nowrap; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
th.num { text-align: right; }
.monitor-name { font-weight: 600; }
.monitor-slug { display: block; color: var(--muted); font-size: 0.82rem; }
.row-down { box-shadow: inset 4px 0 0 var(--down); }
.count-badge { display: inline-block; min-width: 24px; padding: 0 8px; border-radius: 999px; background: var(--down-bg); color: var(--down); font-weight: 700; text-align: center; text-decoration: none; }
.count-zero { color: var(--muted); }
.empty { padding: 28px; text-align: center; color: var(--muted); }

.filters { display: flex; gap: 12px; align-items: flex-end; flex-wrap: wrap; margin-bottom: 14px; }
.filters .field { margin: 0; }
.field { display: flex; flex-direction: column; gap: 4px; margin-bottom: 16px; }
label { font-weight: 600; font-size: 0.92rem; }
.hint { color: var(--muted); font-size: 0.88rem; margin: 0; }
input[type=text], input[type=search], input[type=password], select {
  font: inherit; padding: 7px 10px; border: 1px solid #8d96a7; border-radius: 6px; background: #fff; color: var(--ink); min-width: 200px;
}
input:focus, select:focus { outline: 3px solid var(--focus); outline-offset: 0; border-color: var(--ink); }
.button { display: inline-flex; align-items: center; gap: 6px; font: inherit; font-weight: 600; border-radius: 6px; padding: 7px 16px; border: 1px solid transparent; cursor: pointer; text-decoration: none; }
.button-primary { background: var(--brand); color: #fff; }
.button-primary:hover { background: #1b3272; }
.button-secondary { background: #fff; color: var(--ink); border-color: #8d96a7; }
.button-secondary:hover { background: #f1f3f6; }
.button-warning { background: #fff; color: var(--down); border-color: var(--down); }
.button-warning:hover { background: var(--down-bg); }
.button-small { padding: 3px 10px; font-size: 0.85rem; }

.signin { max-width: 440px; margin: 48px auto; }
.signin .panel { padding: 28px; }
.signin h1 { margin-bottom: 16px; }
.sso-or { display: flex; align-items: center; gap: 12px; color: var(--muted); margin: 20px 0 16px; }
.sso-or::before, .sso-or::after { content: ""; flex: 1; border-top: 1px solid var(--line); }
.sso-button { width: 100%; justify-content: center; box-sizing: border-box; }
.signin .actions { display: flex; gap: 8px; flex-wrap: wrap; margin-bottom: 0; }
.error-summary { border: 3px solid var(--down); border-radius: var(--radius); padding: 14px 18px; margin-bottom: 20px; background: #fff; }
.error-summary h2 { color: var(--down); margin-bottom: 6px; }
.error-summary ul { margin: 0; padding-left: 18px; }
.error-message { color: var(--down); font-weight: 600; margin: 0; }
.field-error input { border: 2px solid var(--down); }
.notice { border-left: 5px solid var(--brand); background: #eef2fb; padding: 10px 14px; border-radius: 0 var(--radius) var(--radius) 0; margin-bottom: 18px; }

dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 8px 18px; margin: 0; }
dl.facts dt { color: var(--muted); font-weight: 600; }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
ol.upcoming { margin: 0; padding-left: 20px; }
ol.upcoming li { font-variant-numeric: tabular-nums; }

.copy-row { display: flex; gap: 8px; align-items: center; margin-bottom: 8px; }
.copy-row code { flex: 1; background: #f1f3f6; border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px; overflow-x: auto; white-space: nowrap; }
.copy-row pre.crontab { flex: 1; margin: 0; background: #f1f3f6; border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px; overflow-x: auto; }
.copy-label { display: block; font-size: 0.82rem; color: var(--muted); font-weight: 600; margin-top: 6px; }

pre.payload { background: #f6f7f9; border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; margin: 4px 0 0; max-height: 160px; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere; font-size: 0.85rem; }
.ping-kind { font-weight: 700; font-size: 0.8rem; letter-spacing: 0.03em; }
.ping-success { color: var(--up); }
.ping-failure { color: var(--down); }
.ping-start, .ping-log { color: var(--muted); }

.warning-list { list-style: none; margin: 0; padding: 0; }
.warning-list li { border-left: 4px solid var(--waiting); background: var(--waiting-bg); padding: 10px 14px; border-radius: 0 6px 6px 0; }
.warning-list li + li { margin-top: 10px; }

.timeline { list-style: none; margin: 0; padding: 0 0 0 18px; border-left: 2px solid var(--line); }
.timeline li { position: relative; padding: 0 0 18px 16px; }
.timeline li::before { content: ""; position: absolute; left: -25px; top: 5px; width: 12px; height: 12px; border-radius: 50%; background: #fff; border: 2px solid var(--muted); }
.timeline li.kind-evidence::before { border-color: var(--down); background: var(--down-bg); }
.timeline li.kind-page::before { border-color: var(--brand); }
.timeline li.kind-human::before { border-color: var(--up); background: var(--up-bg); }
.timeline .when { color: var(--muted); font-size: 0.85rem; font-variant-numeric: tabular-nums; }
.timeline .what { display: block; }
.timeline .type { font-size: 0.78rem; color: var(--muted); font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }

.chart { margin: 0; }
.chart svg { width: 100%; height: auto; }
.chart figcaption { color: var(--muted); font-size: 0.85rem; }
.sparkline { display: block; }
.bar-ok { fill: #2f9e5f; }
.bar-empty { fill: #d7dbe2; }
.bar-fail { fill: var(--down-bg); stroke: var(--down); stroke-width: 1.5; }
.axis { stroke: #aab2bf; stroke-width: 1; }
.tick, .limit-label { font-size: 10px; fill: var(--muted); font-family: system-ui, sans-serif; }
.limit { stroke-width: 1.5; stroke-dasharray: 5 4; }
.limit-max { stroke: var(--down); }
.limit-min { stroke: var(--waiting); }
.response-line { fill: none; stroke: var(--brand); stroke-width: 2; }
.point-ok { fill: var(--brand); }
.point-fail { fill: var(--down); stroke: #fff; stroke-width: 1; }
.uptime-days { display: flex; gap: 3px; align-items: flex-end; flex-wrap: wrap; margin: 0; padding: 0; list-style: none; }
.uptime-days li { display: flex; flex-direction: column; align-items: center; font-size: 0.75rem; color: var(--muted); min-width: 44px; }
.uptime-days .day-bar { width: 100%; height: 28px; border-radius: 4px; display: flex; align-items: center; justify-content: center; color: #fff; font-weight: 700; font-size: 0.75rem; }
.day-good { background: #2f9e5f; }
.day-some { background: #c98a00; }
.day-bad { background: var(--down); }
.day-none { background: #d7dbe2; color: var(--muted) !important; }

.error-page { max-width: 640px; }

@media (max-width: 760px) {
  .grid-incident { grid-template-columns: 1fr; }
  main { padding: 14px 12px 40px; }
  .topbar-inner { padding: 10px 12px; }
  .hide-narrow { display: none; }
  th, td { padding: 8px 10px; }
  input[type=text], input[type=search], select { min-width: 0; width: 100%; }
  .filters .field { flex: 1 1 140px; }
  dl.facts { grid-template-columns: 1fr; gap: 2px; }
  dl.facts dd { margin-bottom: 8px; }
}

/* Incident notes: notes and postmortems in the timeline, and the form that adds them. */
.timeline li.kind-note::before { border-color: var(--brand); background: #eef2fb; }
.timeline .note-text { margin: 4px 0 0; padding: 8px 12px; background: #f6f7f9; border: 1px solid var(--line); border-radius: 6px; white-space: pre-wrap; overflow-wrap: anywhere; }
.visibility { display: inline-block; margin-left: 4px; border-radius: 4px; padding: 0 6px; font-size: 0.75rem; font-weight: 700; letter-spacing: 0.03em; text-transform: uppercase; border: 1px solid transparent; vertical-align: 1px; }
.visibility-public { color: #1b3272; background: #e6ecfa; border-color: #b9c7ee; }
.visibility-internal { color: var(--paused); background: var(--paused-bg); border-color: #d3d7de; }
.note-panel { max-width: 760px; }
.note-panel textarea { font: inherit; width: 100%; min-height: 120px; padding: 8px 10px; border: 1px solid #8d96a7; border-radius: 6px; resize: vertical; color: var(--ink); background: #fff; }
.note-panel textarea:focus { outline: 3px solid var(--focus); outline-offset: 0; border-color: var(--ink); }
.note-panel .field-error textarea { border: 2px solid var(--down); }
.note-panel .error-summary h3 { color: var(--down); margin: 0 0 6px; font-size: 1rem; }
.visibility-choice { border: 0; padding: 0; margin: 0 0 16px; }
.visibility-choice legend { font-weight: 600; font-size: 0.92rem; padding: 0; margin-bottom: 6px; }
.radio { display: flex; align-items: flex-start; gap: 8px; margin-bottom: 6px; }
.radio input { width: 18px; height: 18px; margin: 2px 0 0; accent-color: var(--brand); }
.radio label { font-weight: 600; }
.radio label .hint { font-weight: 400; }
/* Badges & status pages: the project nav, the sharing page and the public status pages */
.project-nav ul { display: flex; gap: 4px; margin: 0 0 18px; padding: 0; list-style: none; border-bottom: 1px solid var(--line); }
.project-nav a { display: block; padding: 8px 14px; text-decoration: none; color: var(--muted); font-weight: 600; border-bottom: 3px solid transparent; margin-bottom: -1px; }
.project-nav a:hover { color: var(--ink); }
.project-nav a[aria-current="page"] { color: var(--brand); border-bottom-color: var(--brand); }
.inline-form { display: inline; margin: 0; }
.badge-project { margin-bottom: 18px; }
.badge-project h3, .status-pages-new { margin: 8px 0 4px; font-size: 1rem; }
.badge-preview { margin: 4px 0 8px; }
.badge-preview img, .badge-table img { display: block; height: 20px; max-width: 100%; object-fit: contain; object-position: left; }
.status-page-form .error-message { margin-bottom: 12px; }
.badge-table { table-layout: fixed; }
.badge-table th:nth-child(1) { width: 24%; }
.badge-table th:nth-child(2) { width: 22%; }
.badge-table td { vertical-align: top; overflow-wrap: anywhere; }
.badge-table .copy-row code { min-width: 0; white-space: normal; overflow-wrap: anywhere; overflow: visible; }
.danger-zone { border-top: 1px solid var(--line); margin-top: 18px; padding-top: 14px; display: flex; gap: 16px; align-items: center; justify-content: space-between; flex-wrap: wrap; }
.danger-zone .hint { flex: 1 1 300px; }
.status-page-list { list-style: none; margin: 0 0 18px; padding: 0; border: 1px solid var(--line); border-radius: var(--radius); }
.status-page-list > li { padding: 12px 16px; }
.status-page-list > li + li { border-top: 1px solid var(--line); }
.status-page-row { display: flex; gap: 12px; align-items: flex-start; justify-content: space-between; }
.status-page-list details { margin-top: 8px; }
.status-page-list summary { cursor: pointer; color: var(--link); font-weight: 600; }
.status-page-form, .verify-form { margin-top: 12px; }
.form-grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(260px, 1fr)); gap: 0 20px; }
.status-page-form input[type=text] { width: 100%; }
.monitor-choice { border: 1px solid var(--line); border-radius: var(--radius); padding: 10px 16px 12px; margin: 0 0 16px; }
.monitor-choice legend { font-weight: 600; font-size: 0.92rem; padding: 0 6px; }
.monitor-choice ul { list-style: none; margin: 0; padding: 0; }
.monitor-choice li { display: grid; grid-template-columns: auto minmax(140px, 1fr) minmax(160px, 1.2fr); gap: 10px; align-items: center; padding: 6px 0; }
.monitor-choice li + li { border-top: 1px dashed var(--line); }
.monitor-choice label { font-weight: 500; }
.checkbox-field { flex-direction: row; align-items: center; gap: 8px; }
input[type=checkbox] { width: 18px; height: 18px; accent-color: var(--brand); margin: 0; }

body.public { background: #f7f8fa; }
.status-main { max-width: 880px; padding: 40px 24px 56px; }
.status-head { text-align: center; margin-bottom: 26px; }
.status-head h1 { justify-content: center; font-size: 2rem; }
.status-head .lede { margin: 6px 0 0; font-size: 1.05rem; }
.status-back { margin: 0 0 18px; }
.status-banner { display: flex; align-items: center; gap: 14px; border-radius: 10px; padding: 16px 22px; margin-bottom: 28px; color: #fff; box-shadow: 0 1px 2px rgba(16,24,40,0.08); }
.status-banner .banner-text { margin: 0; font-size: 1.2rem; font-weight: 700; }
.banner-mark { width: 28px; height: 28px; border-radius: 50%; background: #fff; flex: none; display: flex; align-items: center; justify-content: center; font-weight: 800; font-size: 1rem; }
.banner-up { background: #1f8a4c; }
.banner-up .banner-mark::after { content: "✓"; color: #1f8a4c; }
.banner-late, .banner-partial { background: #b54708; }
.banner-late .banner-mark::after, .banner-partial .banner-mark::after { content: "!"; color: #b54708; }
.banner-down { background: #b42318; }
.banner-down .banner-mark::after { content: "!"; color: #b42318; }
.banner-none { background: #5b6475; }
.banner-none .banner-mark::after { content: "–"; color: #5b6475; }
.status-section { margin-bottom: 30px; }
.status-section > h2 { font-size: 1.2rem; margin-bottom: 12px; }
.status-monitors { list-style: none; margin: 0; padding: 0; background: var(--panel); border: 1px solid var(--line); border-radius: 10px; }
.status-monitor { padding: 18px 22px 14px; }
.status-monitor + .status-monitor { border-top: 1px solid var(--line); }
.status-monitor-head { display: flex; align-items: center; justify-content: space-between; gap: 12px; margin-bottom: 10px; }
.status-monitor-head h3 { margin: 0; font-size: 1.02rem; overflow-wrap: anywhere; }
.state { font-size: 0.88rem; font-weight: 700; white-space: nowrap; }
.state-up { color: var(--up); }
.state-late { color: var(--waiting); }
.state-down { color: var(--down); }
.state-paused, .state-new { color: var(--muted); }
.status-bars { display: flex; gap: 2px; margin: 0; padding: 0; list-style: none; height: 34px; }
.status-bars li { flex: 1 1 0; min-width: 0; display: flex; }
.status-bar { position: relative; display: block; flex: 1; border-radius: 2px; }
.status-bar:hover { box-shadow: inset 0 0 0 40px rgba(16, 24, 40, 0.25); }
.status-bar:focus-visible { outline: 3px solid var(--focus); outline-offset: 1px; z-index: 1; }
.status-bar:hover::after, .status-bar:focus-visible::after {
  content: attr(data-label); position: absolute; bottom: calc(100% + 8px); left: 50%; transform: translateX(-50%); z-index: 2;
  background: var(--ink); color: #fff; font-size: 0.8rem; font-weight: 600; white-space: nowrap; padding: 5px 9px; border-radius: 6px; pointer-events: none;
}
.status-bars li:nth-child(-n+12) .status-bar::after { left: 0; transform: none; }
.status-bars li:nth-last-child(-n+12) .status-bar::after { left: auto; right: 0; transform: none; }
.bar-up { background: #2f9e5f; }
.bar-degraded { background: #e0a100; }
.bar-down { background: #d92d20; }
.bar-none { background: #d7dbe2; }
.status-bars-legend { display: flex; justify-content: space-between; gap: 12px; margin-top: 6px; font-size: 0.8rem; color: var(--muted); }
.legend-uptime { font-weight: 600; color: var(--ink); }
.status-incidents { list-style: none; margin: 0; padding: 0; }
.status-incident { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 14px 20px; }
.status-incident + .status-incident { margin-top: 12px; }
.incident-open { border-left: 5px solid var(--down); }
.status-incident-head { display: flex; justify-content: space-between; align-items: baseline; gap: 12px; }
.status-incident-head h3 { margin: 0; font-size: 1rem; overflow-wrap: anywhere; }
.incident-when { margin: 4px 0 0; color: var(--muted); font-size: 0.88rem; }
.status-notes { list-style: none; margin: 12px 0 0; padding: 0 0 0 14px; border-left: 3px solid var(--line); }
.status-notes li + li { margin-top: 10px; }
.note-meta { margin: 0; font-size: 0.85rem; color: var(--muted); }
.note-meta strong { color: var(--ink); }
.note-postmortem .note-meta strong { color: var(--brand); }
.note-text { margin: 2px 0 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.status-empty { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 16px 20px; margin: 0; color: var(--muted); }
.status-day-figures { list-style: none; margin: 0; padding: 0; background: var(--panel); border: 1px solid var(--line); border-radius: 10px; }
.status-day-figures li { display: grid; grid-template-columns: 1fr auto minmax(180px, auto); gap: 12px; align-items: center; padding: 12px 20px; }
.status-day-figures li + li { border-top: 1px solid var(--line); }
.day-figure-name { font-weight: 600; overflow-wrap: anywhere; }
.day-figure-swatch { width: 14px; height: 14px; border-radius: 3px; }
.status-foot { border-top: 1px solid var(--line); padding-top: 16px; color: var(--muted); font-size: 0.85rem; text-align: center; }
.status-foot p { margin: 0 0 6px; }
@media (max-width: 760px) {
  .status-main { padding: 24px 12px 40px; }
  .status-bars { height: 28px; gap: 1px; }
  .monitor-choice li { grid-template-columns: auto 1fr; }
  .monitor-choice li input[type=text] { grid-column: 2; }
  .status-day-figures li { grid-template-columns: 1fr auto; }
}
/* Settings, audit and time travel */
.project-nav ul { display: flex; gap: 4px; margin: 0 0 18px; padding: 0; list-style: none; border-bottom: 1px solid var(--line); flex-wrap: wrap; }
.project-nav a, .settings-tabs a { display: inline-block; padding: 8px 14px; color: var(--ink); text-decoration: none; border-bottom: 3px solid transparent; font-weight: 600; }
.project-nav a:hover, .settings-tabs a:hover { color: var(--link); }
.project-nav a[aria-current=page], .settings-tabs a[aria-current=page] { border-bottom-color: var(--brand); color: var(--brand); }
.settings-tabs ul { display: flex; gap: 4px; margin: 0 0 18px; padding: 0; list-style: none; flex-wrap: wrap; }
.settings-tabs a { border-radius: 6px 6px 0 0; padding: 6px 12px; font-weight: 500; }
.inline-form { display: inline-flex; gap: 6px; align-items: center; margin: 0; }
.row-actions { white-space: nowrap; text-align: right; }
.row-actions > * + * { margin-left: 6px; }
.tag { display: inline-block; font-size: 0.75rem; font-weight: 700; padding: 0 8px; border-radius: 999px; background: #eef2fb; color: var(--brand); border: 1px solid #c9d4f0; vertical-align: middle; white-space: nowrap; }
.tag-off { background: var(--paused-bg); color: var(--paused); border-color: #d3d7de; }
ul.config-fields, ul.chips { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 6px 12px; }
ul.chips li { display: inline-flex; align-items: center; gap: 6px; background: #f1f3f6; border: 1px solid var(--line); border-radius: 999px; padding: 2px 4px 2px 12px; }
.masked { letter-spacing: 0.1em; color: var(--muted); }
.delivery-failed { color: var(--down); }
.button-quiet { background: transparent; color: var(--link); border: 0; padding: 2px 8px; text-decoration: underline; }
.group { border-top: 1px solid var(--line); padding: 14px 0 4px; }
.group h3 { margin: 0 0 6px; font-size: 1rem; }
.group .facts { margin: 8px 0 12px; }
.add-form { margin: 18px 0 0; padding-top: 16px; border-top: 1px dashed var(--line); }
.attach-form { margin: 0; }
.narrow-panel { max-width: 720px; }
.once { border: 2px solid var(--waiting); }
.warning-text { border-left: 4px solid var(--waiting); background: var(--waiting-bg); padding: 8px 12px; border-radius: 0 6px 6px 0; }
.form-grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(240px, 1fr)); gap: 0 20px; }
fieldset.field { border: 1px solid var(--line); border-radius: var(--radius); padding: 10px 14px 12px; }
/* The notes form's choice of readers is a plain group of radios, framed by nothing. */
fieldset.field.visibility-choice { border: 0; border-radius: 0; padding: 0; }
legend { font-weight: 600; font-size: 0.92rem; padding: 0 6px; }
.radio, .checkbox { display: flex; gap: 8px; align-items: center; margin: 4px 0; flex-direction: row; }
.radio label, .checkbox label, .scope-choices label { font-weight: 400; }
ul.scope-choices { list-style: none; margin: 2px 0 8px 26px; padding: 0; display: flex; flex-wrap: wrap; gap: 4px 18px; }
ul.scope-choices li { display: flex; gap: 6px; align-items: center; }
.form-actions { display: flex; gap: 14px; align-items: center; }
.role { font-weight: 700; font-size: 0.85rem; letter-spacing: 0.03em; }
input[type=url], input[type=number], input[type=email], input[type=datetime-local], textarea {
  font: inherit; padding: 7px 10px; border: 1px solid #8d96a7; border-radius: 6px; background: #fff; color: var(--ink); min-width: 200px;
}
textarea { width: 100%; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9rem; }
textarea:focus { outline: 3px solid var(--focus); outline-offset: 0; border-color: var(--ink); }
.past-banner { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; background: #3b2a00; color: #fff; border-radius: var(--radius); padding: 12px 18px; margin-bottom: 18px; border-left: 8px solid var(--focus); }
.past-banner strong { font-size: 1.05rem; }
/* On a phone the date a monitor was deleted goes under its badge, so that its name keeps whole words,
   and a heading breaks between words ("Open incidents then"), not inside one as the phone rule lets it. */
@media (max-width: 760px) { .past-monitors .deleted-since { display: block; margin-top: 4px; } .past-monitors td:first-child { min-width: 6.5rem; } .past-monitors thead th { overflow-wrap: break-word; } }
.past-banner a { color: #ffe7a6; font-weight: 700; }
.past-banner .past-local { color: #f3e3bd; }
.as-of-form { display: flex; gap: 10px; align-items: flex-end; flex-wrap: wrap; margin: 0 0 18px; }
main > .as-of-form:last-child { margin: 24px 0 0; padding-top: 16px; border-top: 1px solid var(--line); }
.as-of-form .field { margin: 0; }
.omitted { color: var(--muted); font-style: italic; }
.hash { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; overflow-wrap: anywhere; font-size: 0.88rem; }
.copy-row code.wrap { white-space: normal; overflow-wrap: anywhere; }
.check-ok { color: var(--up); font-weight: 700; }
.check-broken { color: var(--down); font-weight: 700; }
.wrap-anywhere { overflow-wrap: anywhere; }
.label-like { display: block; font-weight: 600; margin-bottom: 4px; }
.fixed-value { margin: 0 0 4px; padding: 6px 10px; background: #f1f3f6; border: 1px solid var(--line); border-radius: 6px; }
.keys-table td { vertical-align: top; }
.keys-table .key-meta { display: block; color: var(--muted, #5a6272); font-size: 0.85rem; }
@media (max-width: 760px) {
  .row-actions { white-space: normal; text-align: left; }
  input[type=url], input[type=number], input[type=email], input[type=datetime-local] { min-width: 0; width: 100%; }
}
`;
