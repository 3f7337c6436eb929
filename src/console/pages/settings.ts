import type { ProjectDocument } from '../../../projections/projects.js';
import { type Fragment, type Html, html } from '../html.js';
import { type Viewer, csrfField, page } from '../layout.js';

export const SETTINGS_PAGES = [
  { path: 'channels', label: 'Channels' },
  { path: 'groups', label: 'Groups' },
  { path: 'on-call', label: 'On call' },
  { path: 'escalation', label: 'Escalation' },
  { path: 'keys', label: 'API keys' },
  { path: 'members', label: 'Members' },
  { path: 'project', label: 'Project' },
] as const;
export type SettingsPage = (typeof SETTINGS_PAGES)[number]['path'];

export interface SettingsFrame {
  viewer: Viewer;
  project: ProjectDocument;
  notice: string | null;
  /** A failure to show at the top of the page, e.g. a test message that did not arrive. */
  problem?: string | null;
}

export function settingsPage(frame: SettingsFrame, current: SettingsPage, title: string, body: Fragment): Html {
  const { project } = frame;
  return page({
    title: `${title} · ${project.name}`,
    viewer: frame.viewer,
    notice: frame.notice,
    crumbs: [{ label: project.name, href: `/projects/${project.id}` }, { label: 'Settings', href: `/projects/${project.id}/settings` }, { label: title }],
    project: { id: project.id, current: '/settings' },
    body: html`<div class="page-head"><div><h1>Settings</h1><p class="lede">Where ${project.name} pages, who can reach it, and the project itself.</p></div></div>
<nav aria-label="Settings" class="settings-tabs"><ul>${SETTINGS_PAGES.map((p) =>
  html`<li><a href="/projects/${project.id}/settings/${p.path}"${p.path === current ? html` aria-current="page"` : null}>${p.label}</a></li>`)}</ul></nav>
${frame.problem ? html`<div class="error-summary" role="alert"><h2>There is a problem</h2><p>${frame.problem}</p></div>` : null}
${body}`,
  });
}

export const postButton = (viewer: Viewer, action: string, label: string, cls = 'button-secondary', hidden: Fragment = null) =>
  html`<form method="post" action="${action}" class="inline-form">${csrfField(viewer)}${hidden}<button type="submit" class="button button-small ${cls}">${label}</button></form>`;

