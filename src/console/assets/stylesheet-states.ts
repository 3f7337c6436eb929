/**
 * The states every screen tells alike (src/queries/monitor-state.ts), the incident timeline in
 * words, the uptime check log: appended to the console's stylesheet (assets.ts).
 */
export const STATES_CSS = `
:root {
  --late: #8a3b00;
  --late-bg: #ffead5;
  --degraded: #7a5a00;
  --degraded-bg: #fff6cc;
  --maintenance: #4b2a99;
  --maintenance-bg: #efe9fc;
}
.status-late { color: var(--late); background: var(--late-bg); border-color: #f5c08f; }
.status-late::before { background: none; border: 2px solid currentColor; border-radius: 50%; border-top-color: transparent; }
.status-degraded { color: var(--degraded); background: var(--degraded-bg); border-color: #ecd67a; }
.status-degraded::before { border-radius: 0; width: 0; height: 0; background: none; border-left: 5px solid transparent; border-right: 5px solid transparent; border-bottom: 8px solid currentColor; }
.status-maintenance { color: var(--maintenance); background: var(--maintenance-bg); border-color: #cdbdf0; }
.status-maintenance::before { border-radius: 2px; }
.summary-cards .card-late .count { color: var(--late); }
.summary-cards .card-degraded .count { color: var(--degraded); }
.summary-cards .card-maintenance .count { color: var(--maintenance); }
.state-degraded { color: var(--degraded); }
.state-maintenance { color: var(--maintenance); }
.banner-maintenance { background: #5b3cc4; }
.banner-maintenance .banner-mark::after { content: "i"; color: #5b3cc4; }
.state-why { margin: 4px 0 0; }

.timeline .page-row { display: block; }
.timeline .page-failed { color: var(--down); font-weight: 600; }
.timeline details.internal { margin-top: 4px; font-size: 0.85rem; }
.timeline details.internal summary { cursor: pointer; color: var(--muted); }
.timeline details.internal ol { margin: 4px 0 0; padding-left: 18px; border: 0; }
.timeline details.internal li { padding: 0 0 4px; overflow-wrap: anywhere; }
.timeline details.internal li::before { content: none; }
.check-up { color: var(--up); font-weight: 700; }
.check-down { color: var(--down); font-weight: 700; }
td.error-text { overflow-wrap: anywhere; }
`;
