import type { BadgeKeyDocument } from '../../../projections/badge-keys.js';
import type { MonitorDocument } from '../../../projections/monitors.js';
import type { ProjectDocument } from '../../../projections/projects.js';
import type { StatusPageDocument } from '../../../projections/status-pages.js';
import { type Html, html } from '../html.js';
import { peerClientsPanel } from './peer-urls.js';
import { type Viewer, csrfField, page, projectNav } from '../layout.js';

/** What a status page form holds: a page being edited, or the values of a refused form sent again. */
export interface StatusPageDraft {
  slug: string;
  title: string;
  description: string;
  published: boolean;
  monitors: ReadonlyMap<string, string>;
}

export interface SharingView {
  viewer: Viewer;
  notice: string | null;
  project: ProjectDocument;
  monitors: readonly MonitorDocument[];
  badgeKey: BadgeKeyDocument | null;
  statusPages: readonly StatusPageDocument[];
  origin: string;
  canManage: boolean;
  /** A refused form: which one (`new` or a page's id), why, the field at fault (`slug`, `title`, …), and what it held. */
  refused: { form: string; error: string; field: string | null; draft: StatusPageDraft } | null;
}

function copyable(id: string, label: string, text: string): Html {
  return html`<span class="copy-label" id="${id}-label">${label}</span>
<div class="copy-row"><code id="${id}" tabindex="0">${text}</code><button type="button" class="button button-secondary button-small" data-copy="${id}" aria-describedby="${id}-label" hidden>Copy</button></div>`;
}

function badges(v: SharingView): Html {
  const { project, origin, badgeKey, canManage } = v;
  const rotate = html`<form method="post" action="/projects/${project.id}/sharing/badge-key" class="inline-form">${csrfField(v.viewer)}<button type="submit" class="button ${badgeKey ? 'button-warning' : 'button-primary'}">${badgeKey ? 'Replace the badge key' : 'Issue a badge key'}</button></form>`;
  if (!badgeKey) {
    return html`<section class="panel" aria-labelledby="badges"><h2 id="badges">Badges</h2>
<p>This project has no badge key yet (it was created before badges existed).${canManage ? null : ' A manager of the project can issue one.'}</p>
${canManage ? rotate : null}</section>`;
  }
  const base = `${origin}/badge/${badgeKey.badge_key}`;
  return html`<section class="panel" aria-labelledby="badges"><h2 id="badges">Badges</h2>
<p class="hint">Badge URLs work without signing in: paste them into a README or a wiki. They show each monitor's name and state and nothing else. The key in them is not the ping key.</p>
<div class="badge-project">
<h3>Whole project</h3>
<p class="badge-preview"><img src="/badge/${badgeKey.badge_key}.svg" alt="Badge of ${project.name}"></p>
${copyable('badge-project-url', 'Image URL', `${base}.svg`)}
${copyable('badge-project-md', 'Markdown', `![${project.name}](${base}.svg)`)}
</div>
${v.monitors.length === 0
  ? html`<p class="muted">This project has no monitors yet; each gets a badge of its own.</p>`
  : html`<div class="table-wrap"><table class="badge-table stack-table">
<caption class="visually-hidden">Badges of each monitor</caption>
<thead><tr><th scope="col">Monitor</th><th scope="col">Badge</th><th scope="col">URLs</th></tr></thead>
<tbody>${v.monitors.map((m, i) => html`<tr>
<td data-label="Monitor"><span class="monitor-name">${m.name}</span><span class="monitor-slug">${m.slug}</span></td>
<td data-label="Badge"><img src="/badge/${badgeKey.badge_key}/${m.slug}.svg" alt="Badge of ${m.name}"></td>
<td data-label="URLs">${copyable(`badge-${i}-svg`, 'Image URL', `${base}/${m.slug}.svg`)}${copyable(`badge-${i}-md`, 'Markdown', `![${m.name}](${base}/${m.slug}.svg)`)}</td>
</tr>`)}</tbody></table></div>
<p class="hint">Each monitor also answers in the shields.io endpoint format at <code>${base}/&lt;slug&gt;.json</code>, for <code>https://img.shields.io/endpoint?url=…</code> with shields' own styles.</p>`}
${canManage ? html`<div class="danger-zone"><p class="hint">Replacing the key makes every badge URL above stop working (they answer 404) until you paste the new ones.</p>${rotate}</div>` : null}
</section>`;
}

function statusPageForm(v: SharingView, formId: string, action: string, draft: StatusPageDraft, submit: string): Html {
  const refused = v.refused?.form === formId ? v.refused : null;
  const field = (name: string) => `${formId}-${name}`;
  const bad = (name: string) => (refused?.field === name ? html` aria-invalid="true"` : null);
  const cls = (name: string) => (refused?.field === name ? 'field field-error' : 'field');
  return html`<form method="post" action="${action}" class="status-page-form" id="form-${formId}" novalidate>
${csrfField(v.viewer)}
${refused ? html`<p class="error-message">This page was not saved: ${refused.error}</p>` : null}
<div class="form-grid">
<div class="${cls('title')}"><label for="${field('title')}">Title</label><input type="text" id="${field('title')}" name="title" value="${draft.title}" maxlength="100"${bad('title')} required></div>
<div class="${cls('slug')}"><label for="${field('slug')}">Address</label><input type="text" id="${field('slug')}" name="slug" value="${draft.slug}" maxlength="50" aria-describedby="${field('slug')}-hint"${bad('slug')} required><p class="hint" id="${field('slug')}-hint">${v.origin}/status/<strong>address</strong>: 2 to 50 lowercase letters, digits and hyphens, unique across this Vigil</p></div>
</div>
<div class="${cls('description')}"><label for="${field('description')}">Description (optional)</label><input type="text" id="${field('description')}" name="description" value="${draft.description}" maxlength="500"${bad('description')}></div>
<fieldset class="monitor-choice"><legend>Monitors shown</legend>
${v.monitors.length === 0 ? html`<p class="muted">This project has no monitors yet.</p>` : null}
<ul>${v.monitors.map((m) => {
    const chosen = draft.monitors.has(m.id);
    const box = `${formId}-monitor-${m.id}`;
    return html`<li><input type="checkbox" id="${box}" name="monitor" value="${m.id}"${chosen ? html` checked` : null}><label for="${box}">${m.name}</label>
<label class="visually-hidden" for="${box}-name">Public name of ${m.name}</label><input type="text" id="${box}-name" name="display_name[${m.id}]" value="${draft.monitors.get(m.id) ?? ''}" placeholder="Public name (optional)" maxlength="100"></li>`;
  })}</ul>
</fieldset>
<div class="field checkbox-field"><input type="checkbox" id="${field('published')}" name="published" value="on"${draft.published ? html` checked` : null}><label for="${field('published')}">Published: anyone with the address can read it</label></div>
<button type="submit" class="button button-primary">${submit}</button>
</form>`;
}

const draftOf = (p: StatusPageDocument): StatusPageDraft => ({
  slug: p.slug, title: p.title, description: p.description, published: p.published, monitors: new Map(p.monitors.map((m) => [m.monitor_id, m.display_name ?? ''])),
});

function statusPages(v: SharingView): Html {
  const { project } = v;
  const empty: StatusPageDraft = { slug: '', title: `${project.name} status`.slice(0, 100), description: '', published: false, monitors: new Map() };
  return html`<section class="panel" aria-labelledby="status-pages"><h2 id="status-pages">Status pages</h2>
<p class="hint">A public page with the chosen monitors' current state, 90 days of daily uptime and their incidents with public notes. Nothing else about the project shows on it. Pages are unpublished until you publish them.</p>
${v.statusPages.length === 0 ? html`<p class="muted">No status page yet.</p>` : html`<ul class="status-page-list">${v.statusPages.map((p) => html`<li>
<div class="status-page-row"><div><strong>${p.title}</strong> <span class="status ${p.published ? 'status-up' : 'status-paused'}">${p.published ? 'Published' : 'Not published'}</span>
<span class="monitor-slug">${p.published ? html`<a href="/status/${p.slug}">${v.origin}/status/${p.slug}</a>` : `${v.origin}/status/${p.slug}`} · ${p.monitors.length} ${p.monitors.length === 1 ? 'monitor' : 'monitors'}</span></div>
${v.canManage ? html`<a class="button button-warning button-small" href="/projects/${project.id}/sharing/status-pages/${p.id}/delete">Delete…<span class="visually-hidden"> ${p.title}</span></a>` : null}</div>
${v.canManage
    ? html`<details${v.refused?.form === p.id ? html` open` : null}><summary>Edit ${p.title}</summary>${statusPageForm(v, p.id, `/projects/${project.id}/sharing/status-pages/${p.id}`, v.refused?.form === p.id ? v.refused.draft : draftOf(p), 'Save changes')}</details>`
    : null}
</li>`)}</ul>`}
${v.canManage
    ? html`<h3>New status page</h3>${statusPageForm(v, 'new', `/projects/${project.id}/sharing/status-pages`, v.refused?.form === 'new' ? v.refused.draft : empty, 'Create status page')}`
    : html`<p class="muted">Managers of the project create and edit status pages.</p>`}
</section>`;
}

export function sharingPage(v: SharingView): Html {
  return page({
    title: `Badges & status pages · ${v.project.name}`,
    viewer: v.viewer,
    notice: v.notice,
    crumbs: [{ label: v.project.name, href: `/projects/${v.project.id}` }, { label: 'Badges & status pages' }],
    nav: projectNav(v.project.id, '/sharing'),
    body: html`<div class="page-head"><div><h1>Badges &amp; status pages</h1><p class="lede">Share the state of ${v.project.name}'s monitors outside Vigil.</p></div></div>
${v.refused ? html`<div class="error-summary" role="alert"><h2>There is a problem</h2><ul><li><a href="#${v.refused.field ? `${v.refused.form}-${v.refused.field}` : `form-${v.refused.form}`}">${v.refused.error}</a></li></ul></div>` : null}
${badges(v)}
${statusPages(v)}
${peerClientsPanel(v.project, v.origin)}`,
  });
}

/** Deleting a status page: what goes (its public address) and what stays (the monitors and their history). */
export function deleteStatusPagePage(v: { viewer: Viewer; project: ProjectDocument; statusPage: StatusPageDocument; origin: string }): Html {
  const { project, statusPage: p } = v;
  const back = `/projects/${project.id}/sharing`;
  return page({
    title: `Delete ${p.title} · ${project.name}`,
    viewer: v.viewer,
    crumbs: [{ label: project.name, href: `/projects/${project.id}` }, { label: 'Badges & status pages', href: back }, { label: `Delete ${p.title}` }],
    nav: projectNav(project.id, '/sharing'),
    body: html`<section class="panel narrow-panel" aria-labelledby="delete-title"><h2 id="delete-title">Delete the status page ${p.title}?</h2>
<ul class="loss-list">
<li>Its address <code>${v.origin}/status/${p.slug}</code> answers “not found” at once${p.published ? ': anyone with a link or a bookmark to it sees nothing' : ''}, and any project may then take it.</li>
<li>What it says about its ${p.monitors.length === 1 ? 'monitor' : `${p.monitors.length} monitors`} (the public names given here) is deleted with it.</li>
</ul>
<p>The monitors themselves, their incidents and their notes are kept. This cannot be undone.</p>
<form method="post" action="${back}/status-pages/${p.id}/delete" class="form-actions">${csrfField(v.viewer)}<button type="submit" class="button button-warning">Delete the status page</button> <a href="${back}">Cancel</a></form>
</section>`,
  });
}
