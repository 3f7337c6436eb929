import type { LogIntegrityDocument } from '../../../projections/log-integrity.js';
import type { ProjectDocument } from '../../../projections/projects.js';
import { relativeTime, utc } from '../format.js';
import { type Html, html } from '../html.js';
import { type Viewer, csrfField, page, timeAgo } from '../layout.js';

export interface AuditView {
  viewer: Viewer;
  project: ProjectDocument;
  notice: string | null;
  /** The last check that concerns the project: the operator's (`vigil verify`) or one run from its page. */
  last: LogIntegrityDocument | null;
  /** Who ran the last check from this project's page, by email. */
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
  const who = c.checked_by === 'cli' ? 'vigil verify (the command line)' : `the console, by ${v.checkedBy ?? 'a member of this project'}`;
  // How many events the log held and its running hash are the whole server's: not this page's to show.
  return html`<dl class="facts">
<dt>Result</dt><dd>${c.ok
  ? html`<span class="check-ok" data-check="ok">Intact</span>: every event the log keeps, up to its head then`
  : html`<span class="check-broken" data-check="broken">Broken at position ${c.first_break_position ?? '?'}</span>: the events before it are intact`}</dd>
<dt>When</dt><dd>${utc(c.checked_at)} (${timeAgo(c.checked_at, v.now, relativeTime)})</dd>
<dt>By</dt><dd>${who}</dd>
${c.read_models_ok === null ? null : html`<dt>Read models</dt><dd>${c.read_models_ok ? 'match a replay of the log' : html`<span class="check-broken">differ from a replay of the log</span>`}</dd>`}
</dl>`;
}

export function auditPage(v: AuditView): Html {
  const { project } = v;
  const exportPath = `/v1/projects/${project.id}/events`;
  const curl = `curl -H "X-API-Key: $VIGIL_API_KEY" "${v.origin}${exportPath}?page=1&limit=200"`;
  return page({
    title: `Audit · ${project.name}`,
    viewer: v.viewer,
    notice: v.notice,
    crumbs: [{ label: project.name, href: `/projects/${project.id}` }, { label: 'Audit' }],
    project: { id: project.id, current: '/audit' },
    body: html`<div class="page-head"><div><h1>Audit</h1><p class="lede">The event log every page is built from, and whether it is intact. The log is the whole server's, shared by every project: its head is the operator's (<code>vigil verify</code> prints it), and this page shows the checks run by the operator or from this page.</p></div></div>
<section class="panel" aria-labelledby="check-title"><h2 id="check-title">Last integrity check</h2>
${lastCheck(v)}
${v.chained
  ? v.canVerify
    ? html`<form method="post" action="/projects/${project.id}/audit/verify" class="verify-form">${csrfField(v.viewer)}<button type="submit" class="button button-primary">Verify now</button>
<p class="hint">Walks the hash of every event the log keeps (from its last compaction on), on a thread of its own; on a long log this takes a while.</p></form>`
    : html`<p class="hint">Verifying the log needs the OWNER role on a project and an account key with the manage_projects scope. An operator can also run <code>vigil verify</code>.</p>`
  : html`<p class="hint">This event store (EventStoreDB) keeps no hash chain: <code>vigil verify</code> compares the read models with a replay.</p>`}
</section>
<section class="panel" aria-labelledby="export-title"><h2 id="export-title">Export</h2>
<p>This project's recorded events but its pings (each monitor's own history has those), oldest first: each with its type, time, actor, stream, revision and data, secrets redacted, one JSON object a line.</p>
<p><a class="button button-secondary" href="/projects/${project.id}/audit/export" download>Download the events (NDJSON)</a></p>
<p>The REST API lists the same events 200 a page, filtered with <code>from</code>, <code>to</code> and <code>type</code>; it takes your API key, as every API call does:</p>
<div class="copy-row"><code id="export-curl" class="wrap">${curl}</code><button type="button" class="button button-secondary button-small" data-copy="export-curl" hidden>Copy</button></div>
<p class="hint">For the whole log of the project as it is recorded, to keep or to replay elsewhere, run <code>vigil events export --project ${project.id} &gt; project.ndjson</code> on the server.</p>
</section>`,
  });
}
