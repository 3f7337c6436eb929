import type { Router } from '@koa/router';
import { issueBadgeKey } from '../../app/projects.js';
import { createStatusPage, deleteStatusPage, updateStatusPage, monitorsOf, assertProjectMonitors } from '../../app/status-pages.js';
import { getProject } from '../../queries/projects.js';
import { badgeKeyOfProject, getStatusPage, listStatusPages } from '../../queries/status-pages.js';
import type { StatusPageDocument } from '../../../projections/status-pages.js';
import { actorOf } from '../../web/actor.js';
import { CreateStatusPageBody, UpdateStatusPageBody } from '../../web/codecs/status-pages.js';
import { type ApiDependencies, settled } from '../../web/dependencies.js';
import { HttpError } from '../../web/errors.js';
import { gate } from '../../app/gate.js';
import { gatedDocument } from '../../web/monitor-access.js';
import { badgeKeyBody, statusPageBody } from '../../web/representations/status-pages.js';
import type { VigilState } from '../../web/state.js';
import { decode, pathId } from '../../web/validation.js';
import { MANAGE } from '../../app/monitor-rules.js';

const READ = { scope: 'read' } as const;

/**
 * Status pages (a resource of their own: the project's and the monitors' shapes stay as they
 * are) and the project's badge key. Managing either needs `manage_monitors` with MANAGER, as
 * changing a monitor does; reading them needs `read`.
 */
export function statusPageRoutes(router: Router<VigilState>, deps: ApiDependencies): void {
  const { readModels, commands } = deps;

  const fresh = async (statusPageId: string) => {
    const page = await getStatusPage(readModels, statusPageId);
    if (!page) throw new HttpError(404, 'status page not found');
    return statusPageBody(page);
  };
  const gatedPage = (state: VigilState, rawId: string | undefined, requirement: typeof READ | typeof MANAGE) =>
    gatedDocument<StatusPageDocument>(readModels, state, 'status_pages', rawId, 'status page', requirement);

  router.get('/projects/:projectId/status-pages', async (ctx) => {
    const projectId = pathId(ctx.params['projectId'], 'project');
    await gate(readModels, ctx.state.caller, READ, projectId);
    ctx.body = { status_pages: (await listStatusPages(readModels, projectId)).map(statusPageBody) };
  });

  router.post('/projects/:projectId/status-pages', async (ctx) => {
    const projectId = pathId(ctx.params['projectId'], 'project');
    await gate(readModels, ctx.state.caller, MANAGE, projectId);
    const body = decode(CreateStatusPageBody, ctx.request.body);
    const monitors = monitorsOf(body.monitors ?? []);
    await assertProjectMonitors(readModels, projectId, monitors);
    const settings = { slug: body.slug, title: body.title.trim(), description: body.description ?? '', published: body.published ?? false, monitors };
    const { statusPageId, position } = await createStatusPage(commands, { project_id: projectId, settings }, actorOf(ctx.state));
    await settled(deps, position, ctx.state);
    ctx.status = 201;
    ctx.body = { status_page: await fresh(statusPageId) };
  });

  router.get('/status-pages/:statusPageId', async (ctx) => {
    const page = await gatedPage(ctx.state, ctx.params['statusPageId'], READ);
    ctx.body = { status_page: statusPageBody(page) };
  });

  router.patch('/status-pages/:statusPageId', async (ctx) => {
    const page = await gatedPage(ctx.state, ctx.params['statusPageId'], MANAGE);
    const body = decode(UpdateStatusPageBody, ctx.request.body);
    const monitors = body.monitors === undefined ? undefined : monitorsOf(body.monitors);
    if (monitors) await assertProjectMonitors(readModels, page.project_id, monitors);
    const patch = {
      ...(body.slug !== undefined ? { slug: body.slug } : {}),
      ...(body.title !== undefined ? { title: body.title.trim() } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.published !== undefined ? { published: body.published } : {}),
      ...(monitors !== undefined ? { monitors } : {}),
    };
    await settled(deps, await updateStatusPage(commands, page.id, patch, actorOf(ctx.state)), ctx.state);
    ctx.body = { status_page: await fresh(page.id) };
  });

  router.delete('/status-pages/:statusPageId', async (ctx) => {
    const page = await gatedPage(ctx.state, ctx.params['statusPageId'], MANAGE);
    await settled(deps, await deleteStatusPage(commands, page.id, actorOf(ctx.state)), ctx.state);
    ctx.status = 204;
  });

  router.get('/projects/:projectId/badge-key', async (ctx) => {
    const projectId = pathId(ctx.params['projectId'], 'project');
    await gate(readModels, ctx.state.caller, READ, projectId);
    const key = await badgeKeyOfProject(readModels, projectId);
    // A project from before badges has none until one is issued.
    if (!key) throw new HttpError(404, 'this project has no badge key yet; POST to this path to issue one');
    ctx.body = { badge_key: badgeKeyBody(key) };
  });

  router.post('/projects/:projectId/badge-key', async (ctx) => {
    const projectId = pathId(ctx.params['projectId'], 'project');
    await gate(readModels, ctx.state.caller, MANAGE, projectId);
    if (!(await getProject(readModels, projectId))) throw new HttpError(404, 'project not found');
    const outcome = await issueBadgeKey(commands, { project_id: projectId }, actorOf(ctx.state));
    await settled(deps, outcome.position, ctx.state);
    const key = await badgeKeyOfProject(readModels, projectId);
    if (!key) throw new HttpError(404, 'project not found');
    ctx.body = { badge_key: badgeKeyBody(key) };
  });
}
