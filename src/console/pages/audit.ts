import type { LogIntegrityDocument } from '../../../projections/log-integrity.js';
import type { ProjectDocument } from '../../../projections/projects.js';
import type { LogHead } from '../../audit/log-check.js';
import { relativeTime, utc } from '../format.js';
import { type Html, html } from '../html.js';
import { type Viewer, csrfField, page, timeAgo } from '../layout.js';

export interface AuditView {
  viewer: Viewer;
  project: ProjectDocument;
  notice: string | null;
  head: LogHead;
  last: LogIntegrityDocument | null;
  /** Who ran the last check from the console, by email. */
  checkedBy: string | null;
  /** Whether this store keeps a hash chain to check (the embedded one does; EventStoreDB does not). */
  chained: boolean;
  canVerify: boolean;
  origin: string;
  now: Date;
}

function lastCheck(v: AuditView): Html {
  const c = v.last;
  if (!c) return html`<p class="empty">The log has not been checked yet.${v.chained ? ' Run vigil verify on the server, or Verify now.' : ''}</p>`;
  const who = c.checked_by === 'cli' ? 'vigil verify (the command line)' : `the console, by ${v.checkedBy ?? c.user_id ?? 'a user'}`;
  return html`<dl class="facts">
<dt>Result</dt><dd>${c.ok
  ? html`<span class="check-ok" data-check="ok">Intact</span>: ${c.events_checked} events checked, up to position ${c.head_position}`
  : html`<span class="check-broken" data-check="broken">Broken at position ${c.first_break_position ?? '?'}</span>: ${c.events_checked} events checked before it`}</dd>
<dt>When</dt><dd>${utc(c.checked_at)} (${timeAgo(c.checked_at, v.now, relativeTime)})</dd>
<dt>By</dt><dd>${who}</dd>
${c.read_models_ok === null ? null : html`<dt>Read models</dt><dd>${c.read_models_ok ? 'match a replay of the log' : html`<span class="check-broken">differ from a replay of the log</span>`}</dd>`}
${c.head_chain ? html`<dt>Running hash then</dt><dd class="hash">${c.head_chain}</dd>` : null}
</dl>`;
}

export function auditPage(v: AuditView): Html {
  const { project, head } = v;
  const exportPath = `/v1/projects/${project.id}/events`;
  const curl = `curl -H "X-API-Key: $VIGIL_API_KEY" "${v.origin}${exportPath}?page=1&limit=200"`;
  return page({
    title: `Audit · ${project.name}`,
    viewer: v.viewer,
    notice: v.notice,
    crumbs: [{ label: project.name, href: `/projects/${project.id}` }, { label: 'Audit' }],
    project: { id: project.id, current: '/audit' },
    body: html`<div class="page-head"><div><h1>Audit</h1><p class="lede">The event log every page is built from, and whether it is intact. The log is the whole server's: its head and its check are shared by every project.</p></div></div>
<div class="grid-2">
<section class="panel" aria-labelledby="head-title"><h2 id="head-title">Head of the log</h2>
${head.position === 0 ? html`<p class="empty">The log is empty.</p>` : html`<dl class="facts">
<dt>Position</dt><dd data-head-position="${head.position}">${head.position}</dd>
<dt>Recorded</dt><dd>${head.time ? html`${utc(head.time)} (${timeAgo(head.time, v.now, relativeTime)})` : html`<span class="muted">unknown</span>`}</dd>
<dt>Hash of the last event</dt><dd class="hash">${head.hash ?? html`<span class="muted">not kept by this event store</span>`}</dd>
${head.chain ? html`<dt>Running hash</dt><dd class="hash">${head.chain}</dd>` : null}
</dl>`}
</section>
<section class="panel" aria-labelledby="check-title"><h2 id="check-title">Last integrity check</h2>
${lastCheck(v)}
${v.chained
  ? v.canVerify
    ? html`<form method="post" action="/projects/${project.id}/audit/verify" class="verify-form">${csrfField(v.viewer)}<button type="submit" class="button button-primary">Verify now</button>
<p class="hint">Walks every event's hash from the first, on a thread of its own; on a long log this takes a while.</p></form>`
    : html`<p class="hint">Verifying the log needs the OWNER role on a project and an account key with the manage_projects scope. An operator can also run <code>vigil verify</code>.</p>`
  : html`<p class="hint">This event store (EventStoreDB) keeps no hash chain: <code>vigil verify</code> compares the read models with a replay.</p>`}
</section>
</div>
<section class="panel" aria-labelledby="export-title"><h2 id="export-title">Export</h2>
<p>The REST API lists this project's recorded events but its pings (each monitor's own history has those), oldest first, 200 a page: each with its type, time, actor, stream, revision and data, secrets redacted. Filter with <code>from</code>, <code>to</code> and <code>type</code>. It takes your API key, as every API call does:</p>
<p><a href="${exportPath}">${exportPath}</a></p>
<div class="copy-row"><code id="export-curl" class="wrap">${curl}</code><button type="button" class="button button-secondary button-small" data-copy="export-curl" hidden>Copy</button></div>
<p class="hint">For the whole log of the project as it is recorded, to keep or to replay elsewhere, run <code>vigil events export --project ${project.id} &gt; project.ndjson</code> on the server.</p>
</section>`,
  });
}
