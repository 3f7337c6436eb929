import type { IncidentDocument } from '../../../projections/incidents.js';
import type { MonitorDocument } from '../../../projections/monitors.js';
import type { ProjectDocument } from '../../../projections/projects.js';
import type { PingRecord } from '../../queries/pings.js';
import type { UnheardObservation } from '../../domain/monitors/monitor.js';
import type { Warning } from '../../queries/warnings.js';
import type { CheckLogEntry } from '../../queries/check-log.js';
import { INCIDENT_WORDS } from '../timeline.js';
import { durationChart, responseTimeChart } from '../charts.js';
import { TYPE_NAMES, duration, inZone, plural, relativeTime, scheduleInWords, utc, utcSeconds } from '../format.js';
import { type Fragment, type Html, html } from '../html.js';
import { type Viewer, csrfField, incidentBadge, page, statusBadge, timeAgo } from '../layout.js';
import type { DisplayStatus } from '../overview.js';
import type { Run } from '../../queries/recent-runs.js';
import { isUptimeType } from '../../domain/monitors/schedule.js';
import { type MonitorMaintenance, monitorMaintenancePanel } from './maintenance.js';
import { peerPingUrls } from './peer-urls.js';

export interface UptimeDay {
  day: string;
  percentage: number | null;
  checks: number;
}

export interface MonitorView {
  viewer: Viewer;
  /** What the last action did, said once. */
  notice: string | null;
  monitor: MonitorDocument;
  project: ProjectDocument;
  status: DisplayStatus;
  lastSeenAt: string | null;
  upcoming: string[];
  /** Where Vigil is reached from the browser: the base of the ping URLs. */
  origin: string;
  pings: PingRecord[];
  /** An uptime monitor's newest checks, newest first (none for a job). */
  checks: CheckLogEntry[];
  /** Slots and runs Vigil could not hear (its own outages), newest first. */
  unheard: UnheardObservation[];
  runs: Run[];
  uptimeDays: UptimeDay[] | null;
  incidents: IncidentDocument[];
  warnings: Warning[];
  canManage: boolean;
  now: Date;
  /** The window covering it now and what windows held back, when either is there. */
  maintenance?: MonitorMaintenance;
  /** The monitors it depends on, and those that depend on it, with their status now. */
  dependencies: RelatedMonitor[];
  /** Who it pages, in words (src/console/monitor-routing.ts). */
  routing?: string;
  dependents: RelatedMonitor[];
}

export interface RelatedMonitor {
  id: string;
  name: string;
  status: DisplayStatus;
}

/** Payloads longer than this are cut in the list; the API gives the whole one. */
const PAYLOAD_SHOWN_CHARS = 2000;

function copyable(id: string, label: string, text: string): Html {
  return html`<span class="copy-label" id="${id}-label">${label}</span>
<div class="copy-row"><code id="${id}" tabindex="0">${text}</code><button type="button" class="button button-secondary button-small" data-copy="${id}" aria-describedby="${id}-label" hidden>Copy</button></div>`;
}

function seconds(s: number | null): string | null {
  return s === null ? null : duration(s * 1000);
}

function facts(m: MonitorDocument, routing: string | undefined): Html {
  const rows: [string, Fragment][] = [
    ['Type', TYPE_NAMES[m.type]],
    ['Schedule', scheduleInWords(m)],
    [
      'Goes DOWN after',
      m.type === 'JOB_BASIC'
        ? plural(m.failure_tolerance, 'failed run')
        : isUptimeType(m.type)
          ? plural(m.failure_tolerance, 'failed check')
          : `${plural(m.schedule_tolerance, 'missed check-in')} or ${plural(m.failure_tolerance, 'failed run')}`,
    ],
  ];
  const min = seconds(m.min_duration_seconds);
  const max = seconds(m.max_duration_seconds);
  if (min || max) rows.push(['Expected run time', min && max ? `between ${min} and ${max}` : min ? `at least ${min}` : `at most ${max}`]);
  rows.push(['Alerts', m.alert_enabled ? (m.alerts_paused_until ? `paused until ${utc(m.alerts_paused_until)}` : 'on') : 'off']);
  if (routing !== undefined) rows.push(['Pages', routing]);
  if (m.tags.length > 0) rows.push(['Tags', m.tags.join(', ')]);
  if (m.description) rows.push(['Description', m.description]);
  rows.push(['Slug', html`<code>${m.slug}</code>`]);
  if (!isUptimeType(m.type)) rows.push(['Keeps', m.retention_count === 1 ? 'the last ping' : `the last ${plural(m.retention_count, 'ping')}`]);
  return html`<dl class="facts">${rows.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>`;
}

function checkTarget(m: MonitorDocument): string {
  if (m.type === 'UPTIME_TCP') return `${m.tcp?.tcp_host ?? ''}:${m.tcp?.tcp_port ?? ''}`;
  if (m.type === 'UPTIME_DNS') return `${m.dns?.dns_hostname ?? ''} (${m.dns?.dns_record_type ?? 'A'})`;
  return m.uptime?.uptime_url ?? '';
}

function pingUrls(v: MonitorView): Html {
  const { monitor: m, origin, project } = v;
  if (isUptimeType(m.type)) {
    return html`<section class="panel"><h2>Target</h2><p>Vigil checks <code>${checkTarget(m)}</code> itself; nothing needs to ping it.</p></section>`;
  }
  const base = `${origin}/v1/ping/${m.id}`;
  const job = '/path/to/your-job';
  const exec = `vigil exec --monitor ${m.id} --url ${origin} -- ${job}`;
  const isCron = m.type === 'JOB_CRON' && !/^RRULE:/i.test(m.schedule);
  const crontab = isCron ? `${m.timezone !== 'UTC' ? `CRON_TZ=${m.timezone}\n` : ''}${m.schedule} ${exec}` : exec;
  return html`<section class="panel" aria-labelledby="ping-urls"><h2 id="ping-urls">Ping URLs</h2>
${copyable('url-success', 'Success (GET or POST)', base)}
${copyable('url-start', 'Start', `${base}/start`)}
${copyable('url-fail', 'Failure', `${base}/fail`)}
${copyable('url-log', 'Log (does not count as a check-in)', `${base}/log`)}
${copyable('url-slug', 'By slug', `${origin}/v1/s-ping/${project.ping_key}/${m.slug}`)}
${peerPingUrls(m, project, origin)}
<h3 class="copy-label">${isCron ? 'Crontab line' : 'Wrap the job'}</h3>
<div class="copy-row"><pre class="crontab" id="crontab" tabindex="0">${crontab}</pre><button type="button" class="button button-secondary button-small" data-copy="crontab" hidden>Copy</button></div>
<p class="hint"><code>vigil exec</code> sends the start, success or failure pings with one run id, the exit code and the end of the output.</p>
</section>`;
}

function pingsTable(pings: readonly PingRecord[], now: Date): Html {
  if (pings.length === 0) return html`<p class="muted">No pings yet.</p>`;
  return html`<div class="table-wrap"><table>
<caption class="visually-hidden">Recent pings, newest first</caption>
<thead><tr><th scope="col">Received</th><th scope="col">Kind</th><th scope="col" class="hide-narrow">Exit</th><th scope="col" class="hide-narrow">Duration</th><th scope="col">Details</th></tr></thead>
<tbody>${pings.map((p) => html`<tr>
<td>${timeAgo(p.created_at, now, relativeTime)}</td>
<td><span class="ping-kind ping-${p.event.toLowerCase()}">${p.event}</span></td>
<td class="hide-narrow">${p.exit_code ?? html`<span class="muted">–</span>`}</td>
<td class="hide-narrow">${p.duration_ms !== null ? duration(p.duration_ms) : html`<span class="muted">–</span>`}${p.duration_assertion && p.duration_assertion !== 'PASS' ? html` <strong>${p.duration_assertion.replace('_', ' ').toLowerCase()}</strong>` : null}</td>
<td>${p.message ? html`<div>${p.message}</div>` : null}${p.payload
  ? html`<pre class="payload">${p.payload.length > PAYLOAD_SHOWN_CHARS ? `${p.payload.slice(0, PAYLOAD_SHOWN_CHARS)}…` : p.payload}</pre>${p.payload_truncated ? html`<span class="hint">The payload was cut at the server's limit.</span>` : null}`
  : null}${!p.message && !p.payload ? html`<span class="muted">${p.request_ip ? `from ${p.request_ip}` : ''}</span>` : null}</td>
</tr>`)}</tbody></table></div>`;
}

function checksTable(checks: readonly CheckLogEntry[], now: Date): Html {
  if (checks.length === 0) return html`<p class="muted">No check yet.</p>`;
  return html`<div class="table-wrap"><table>
<caption class="visually-hidden">Recent checks, newest first</caption>
<thead><tr><th scope="col">Checked</th><th scope="col">Result</th><th scope="col" class="num">Response time</th><th scope="col">Error</th></tr></thead>
<tbody>${checks.map((c) => html`<tr>
<td>${timeAgo(c.checkedAt, now, relativeTime)}</td>
<td>${c.isUp ? html`<span class="check-up">Up</span>` : html`<span class="check-down">Down</span>`}${c.statusCode !== null ? html` <span class="muted">HTTP ${c.statusCode}</span>` : null}</td>
<td class="num">${duration(c.responseTimeMs)}</td>
<td class="error-text">${c.error ?? html`<span class="muted">–</span>`}</td>
</tr>`)}</tbody></table></div>`;
}

/** Why the monitor is in its state, where the badge alone does not say. */
function stateWhy(v: MonitorView): Html | null {
  const open = v.incidents.filter((i) => i.status !== 'RESOLVED').length;
  switch (v.status) {
    case 'DEGRADED':
      return html`<p class="state-why">Its last ${isUptimeType(v.monitor.type) ? 'check' : 'run'} succeeded, but ${open === 1 ? 'an incident is' : `${open} incidents are`} still open: see <a href="#incidents">Incidents</a>.</p>`;
    case 'LATE':
      return html`<p class="state-why">The check-in expected ${v.monitor.next_expected_at ? timeAgo(v.monitor.next_expected_at, v.now, relativeTime) : ''} has not come yet; its grace period is running.</p>`;
    case 'MAINTENANCE':
      return html`<p class="state-why">A maintenance window covers it: what it reports now opens no incident and pages nobody.</p>`;
    default:
      return null;
  }
}

/** Only shown where Vigil had an outage of its own while this monitor's deadlines fell due. */
function unheardPanel(unheard: readonly UnheardObservation[]): Html | null {
  if (unheard.length === 0) return null;
  const what = (o: UnheardObservation) =>
    o.type === 'CheckInUnheard'
      ? o.data.slots === 1 ? `The check-in expected at ${utcSeconds(o.data.expected_at)}` : `${o.data.slots} check-ins expected from ${utcSeconds(o.data.expected_at)} to ${utcSeconds(o.data.last_expected_at)}`
      : `The end of the run started at ${utcSeconds(o.data.started_at)} (due by ${utcSeconds(o.data.deadline_at)})`;
  return html`<section class="panel" aria-labelledby="unheard"><h2 id="unheard">Not heard</h2>
<p class="hint">Vigil itself was not listening (stopped, restarting or paused), so it could not tell whether these came: they count neither as missed nor as hung, and opened no incident.</p>
<div class="table-wrap"><table>
<caption class="visually-hidden">Check-ins and runs Vigil could not hear, newest first</caption>
<thead><tr><th scope="col">What</th><th scope="col">Vigil not listening</th></tr></thead>
<tbody>${unheard.map((o) => html`<tr><td>${what(o)}</td><td>from ${utcSeconds(o.data.outage_from)} to ${utcSeconds(o.data.outage_to)}</td></tr>`)}</tbody></table></div>
</section>`;
}

function incidentsTable(incidents: readonly IncidentDocument[], now: Date): Html {
  if (incidents.length === 0) return html`<p class="muted">No incidents.</p>`;
  return html`<div class="table-wrap"><table>
<caption class="visually-hidden">Incidents, newest first</caption>
<thead><tr><th scope="col">Started</th><th scope="col">What</th><th scope="col">Status</th></tr></thead>
<tbody>${incidents.map((i) => html`<tr>
<td>${timeAgo(i.started_at, now, relativeTime)}</td>
<td><a href="/incidents/${i.id}">${INCIDENT_WORDS[i.event]}</a>: ${i.cause}${i.caused_upstream ? html` <span class="muted">(caused upstream: ${i.caused_upstream.name} was DOWN; not paged)</span>` : null}</td>
<td>${incidentBadge(i.status)}</td>
</tr>`)}</tbody></table></div>`;
}

function relatedList(monitors: readonly RelatedMonitor[], none: string): Html {
  if (monitors.length === 0) return html`<p class="muted">${none}</p>`;
  return html`<ul class="related-monitors">${monitors.map((r) => html`<li><a href="/monitors/${r.id}">${r.name}</a> ${statusBadge(r.status)}</li>`)}</ul>`;
}

/** Only shown where there is something to say: most monitors depend on nothing. */
function dependencies(v: MonitorView): Html | null {
  if (v.dependencies.length === 0 && v.dependents.length === 0) return null;
  return html`<section class="panel" aria-labelledby="dependencies"><h2 id="dependencies">Dependencies</h2>
<h3>Depends on</h3>${relatedList(v.dependencies, 'Nothing.')}
${v.dependencies.length > 0 ? html`<p class="hint">While one of these is DOWN, this monitor's incidents are recorded as caused upstream and page nobody.</p>` : null}
<h3>Depended on by</h3>${relatedList(v.dependents, 'No other monitor.')}
</section>`;
}

function uptimeDays(days: readonly UptimeDay[]): Html {
  return html`<ul class="uptime-days" aria-label="Uptime by day">${days.map((d) => {
    const cls = d.percentage === null ? 'day-none' : d.percentage >= 99.9 ? 'day-good' : d.percentage >= 95 ? 'day-some' : 'day-bad';
    const text = d.percentage === null ? 'no data' : `${d.percentage}%`;
    return html`<li><span class="day-bar ${cls}" title="${d.day}: ${text} of ${plural(d.checks, 'check')}">${d.percentage === null ? '–' : `${Math.floor(d.percentage)}%`}</span><span>${d.day.slice(5)}</span></li>`;
  })}</ul>`;
}

export function monitorPage(v: MonitorView): Html {
  const { monitor: m, now } = v;
  // Slots off the minute (a heartbeat counts from its last ping: 14:03:41, 14:04:41, …) are shown
  // to the second: to the minute they would read a minute early, and repeat under a minute apart.
  const offMinute = v.upcoming.some((at) => Date.parse(at) % 60_000 !== 0);
  const action = (path: string, label: string) =>
    html`<form method="post" action="/monitors/${m.id}/${path}">${csrfField(v.viewer)}<button type="submit" class="button button-secondary">${label}</button></form>`;
  return page({
    title: m.name,
    viewer: v.viewer,
    notice: v.notice,
    crumbs: [{ label: v.project.name, href: `/projects/${v.project.id}` }, { label: m.name }],
    body: html`<div class="page-head"><div>
<h1>${m.name} ${v.status === 'WAITING' ? html`<span class="status status-waiting">${isUptimeType(m.type) ? 'Waiting for first check' : 'Waiting for first ping'}</span>` : statusBadge(v.status)}</h1>
<p class="lede">${scheduleInWords(m)}. Last ${isUptimeType(m.type) ? 'check' : 'ping'} ${timeAgo(v.lastSeenAt, now, relativeTime)}.</p>
${stateWhy(v)}
</div>
${v.canManage ? html`<div class="actions"><a class="button button-secondary" href="/monitors/${m.id}/edit">Edit</a>${m.paused ? action('resume', 'Resume monitoring') : action('pause', 'Pause monitoring')}<a class="button button-warning" href="/monitors/${m.id}/delete">Delete…</a></div>` : null}
</div>
${v.warnings.length > 0
  ? html`<section class="panel" aria-labelledby="warnings"><h2 id="warnings">Warnings</h2><ul class="warning-list">${v.warnings.map((w) => html`<li><strong>${w.message}</strong><br>${w.recommendation}</li>`)}</ul></section>`
  : null}
<div class="grid-2">
<section class="panel" aria-labelledby="config"><h2 id="config">Configuration</h2>${facts(m, v.routing)}</section>
<section class="panel" aria-labelledby="upcoming"><h2 id="upcoming">Next expected</h2>
${m.paused
  ? html`<p class="muted">Paused: nothing is expected until it is resumed.</p>`
  : v.upcoming.length === 0
    ? html`<p class="muted">${m.type === 'JOB_BASIC' ? 'No schedule: this monitor waits for the job to report.' : 'Nothing scheduled.'}</p>`
    : html`<p class="hint">In ${m.timezone}:</p><ol class="upcoming">${v.upcoming.map((at) => html`<li><time datetime="${at}">${inZone(at, m.timezone, offMinute)}</time></li>`)}</ol>`}
</section>
</div>
<div class="stack">
${dependencies(v)}
${pingUrls(v)}
<section class="panel" aria-labelledby="runs"><h2 id="runs">${isUptimeType(m.type) ? 'Response time' : 'Run durations'}</h2>
${isUptimeType(m.type)
  ? responseTimeChart(v.runs)
  : durationChart(v.runs, { minMs: m.min_duration_seconds === null ? null : m.min_duration_seconds * 1000, maxMs: m.max_duration_seconds === null ? null : m.max_duration_seconds * 1000 }, 'Run durations')}
${v.uptimeDays ? html`<h3>Uptime by day (UTC)</h3>${uptimeDays(v.uptimeDays)}` : null}
</section>
${v.maintenance ? monitorMaintenancePanel(v.maintenance) : null}
<section aria-labelledby="incidents"><h2 id="incidents">Incidents</h2>${incidentsTable(v.incidents, now)}</section>
${unheardPanel(v.unheard)}
${isUptimeType(m.type)
  ? html`<section aria-labelledby="checks"><h2 id="checks">Recent checks</h2>${checksTable(v.checks, now)}</section>`
  : html`<section aria-labelledby="pings"><h2 id="pings">Recent pings</h2>${pingsTable(v.pings, now)}</section>`}
</div>`,
  });
}
