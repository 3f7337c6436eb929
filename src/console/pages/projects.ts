import type { ProjectDetails } from '../../queries/projects.js';
import { plural } from '../format.js';
import { type Html, html } from '../html.js';
import { type Viewer, page } from '../layout.js';

export interface ProjectSummary {
  details: ProjectDetails;
  monitors: number;
  down: number;
  role: string;
}

/** `byKey`: the session was opened with an API key, which is what limits what it sees. */
export function projectsPage(viewer: Viewer, projects: readonly ProjectSummary[], byKey = true): Html {
  return page({
    title: 'Projects',
    viewer,
    body: html`<div class="page-head"><div><h1>Projects</h1><p class="lede">${plural(projects.length, 'project')} ${byKey ? 'this key can see' : 'you are a member of'}.</p></div>
<div class="actions"><a class="button button-primary" href="/new-project">New project</a></div></div>
${projects.length === 0
  ? html`<div class="panel"><p>${byKey ? 'This key reaches no project yet.' : 'You are not a member of any project yet.'} <a href="/new-project">Create a project</a> (you become its owner), or ask a project's owner for an invitation.</p></div>`
  : html`<div class="table-wrap"><table>
<caption class="visually-hidden">Projects</caption>
<thead><tr><th scope="col">Project</th><th scope="col" class="hide-narrow">Your role</th><th scope="col" class="num">Monitors</th><th scope="col">Status</th></tr></thead>
<tbody>${projects.map(({ details, monitors, down, role }) => html`<tr>
<td><a class="monitor-name" href="/projects/${details.project.id}">${details.project.name}</a>${details.project.description ? html`<span class="monitor-slug">${details.project.description}</span>` : null}</td>
<td class="hide-narrow">${role}</td>
<td class="num">${monitors}</td>
<td>${monitors === 0 ? html`<span class="muted">no monitors</span>` : down > 0 ? html`<span class="status status-down">${down} DOWN</span>` : html`<span class="status status-up">All UP</span>`}</td>
</tr>`)}</tbody></table></div>`}`,
  });
}
