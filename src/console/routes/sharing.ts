import { Refusal } from '../../app/refusal.js';
import * as t from 'io-ts';
import type { Context } from 'koa';
import { actorOf } from '../../web/actor.js';
import { CreateStatusPageBody, UpdateStatusPageBody } from '../../web/codecs/status-pages.js';
import { settled } from '../../web/dependencies.js';
import { HttpError, errorResponse } from '../../web/errors.js';
import { gate } from '../../app/gate.js';
import { MANAGE as MANAGE_MONITORS } from '../../app/monitor-rules.js';
import { assertProjectMonitors, monitorsOf } from '../../app/status-pages.js';
import type { VigilState } from '../../web/state.js';
import { decode, pathId } from '../../web/validation.js';
import { issueBadgeKey } from '../../app/projects.js';
import { createStatusPage, deleteStatusPage, updateStatusPage } from '../../app/status-pages.js';
import { DomainError } from '../../domain/errors.js';
import { listMonitors } from '../../queries/monitors.js';
import { getProject } from '../../queries/projects.js';
import { badgeKeyOfProject, getStatusPage, listStatusPages } from '../../queries/status-pages.js';
import { type StatusPageDraft, deleteStatusPagePage, sharingPage } from '../pages/sharing.js';
import type { ConsoleKit, ConsoleRoutes, ConsoleState } from '../kit.js';
import { doneNotice } from '../done-notice.js';
import { render } from '../signed-in.js';

const READ = { scope: 'read' } as const;

const DONE = {
  'key-issued': 'A new badge key is in place. The old badge URLs no longer work.',
  created: 'Status page created.',
  saved: 'Status page saved.',
  deleted: 'Status page deleted; its address is free again.',
} as const;

/**
 * The status page form, as the browser sends it (qs-style: `monitor` once per ticked box,
 * `display_name[<monitor id>]` per name field); turned into the REST API's body and decoded
 * with the REST API's own codec, so both refuse the same things with the same words.
 */
const StatusPageForm = t.partial({
  slug: t.string,
  title: t.string,
  description: t.string,
  published: t.literal('on'),
  monitor: t.union([t.string, t.array(t.string)]),
  display_name: t.record(t.string, t.string),
});
type StatusPageFormValues = t.TypeOf<typeof StatusPageForm>;

function draftOf(form: StatusPageFormValues): StatusPageDraft {
  const chosen = form.monitor === undefined ? [] : typeof form.monitor === 'string' ? [form.monitor] : form.monitor;
  return {
    slug: form.slug?.trim() ?? '',
    title: form.title ?? '',
    description: form.description ?? '',
    published: form.published === 'on',
    monitors: new Map(chosen.map((id) => [id, form.display_name?.[id] ?? ''])),
  };
}

const bodyOf = (draft: StatusPageDraft) => ({
  slug: draft.slug,
  title: draft.title,
  description: draft.description,
  published: draft.published,
  monitors: [...draft.monitors].map(([monitor_id, name]) => ({ monitor_id, display_name: name.trim() === '' ? null : name.trim() })),
});

/**
 * An API refusal in the form's words: its "Address" field is the API's `slug`, and a monitor's
 * public name is `monitors[<i>].display_name`. `names`: the chosen monitors, in the body's order.
 */
export function inFormWords(error: string, names: readonly string[]): { message: string; field: string | null } {
  const field = /^slug\b/.test(error) || /address .* is taken/.test(error) ? 'slug' : /^title\b/.test(error) ? 'title' : /^description\b/.test(error) ? 'description' : null;
  const message = error
    .replace(/^slug\b/, 'Address')
    .replace(/choose another slug/, 'choose another address')
    .replace(/^title\b/, 'Title')
    .replace(/^description\b/, 'Description')
    .replace(/^monitors\[(\d+)\]\.display_name\b/, (_, i: string) => `Public name of ${names[Number(i)] ?? 'a monitor'}`)
    .replace(/^monitors\[(\d+)\]\.monitor_id\b/, 'Monitors shown')
    .replace(/^monitors\b/, 'Monitors shown');
  return { message: message.charAt(0).toUpperCase() + message.slice(1), field };
}

/** The "Badges & status pages" page of a project (`/projects/<id>/sharing`) and its forms. */
export const sharingRoutes: ConsoleRoutes = (kit: ConsoleKit) => {
  const { router, deps, signedIn, may } = kit;
  const { readModels, commands } = deps;

  async function show(ctx: Context & { state: ConsoleState }, projectId: string, refused: { form: string; error: string; field: string | null; draft: StatusPageDraft; status: number } | null) {
    ctx.set('Cache-Control', 'no-store');
    const project = await getProject(readModels, projectId);
    if (!project) throw new HttpError(404, 'project not found');
    const [monitors, badgeKey, statusPages, canManage] = await Promise.all([
      listMonitors(readModels, projectId).then((all) => all.sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || a.id.localeCompare(b.id))),
      badgeKeyOfProject(readModels, projectId),
      listStatusPages(readModels, projectId),
      may(ctx.state.caller, MANAGE_MONITORS, projectId),
    ]);
    render(ctx, sharingPage({
      viewer: ctx.state.viewer, notice: refused ? null : doneNotice(ctx, DONE), project, monitors, badgeKey, statusPages, canManage,
      origin: `${ctx.protocol}://${ctx.host}`, refused,
    }), refused?.status ?? 200);
  }

  const back = (ctx: Context, projectId: string, done: keyof typeof DONE) => {
    ctx.status = 303;
    ctx.redirect(`/projects/${projectId}/sharing?done=${done}`);
  };

  /** A refused form comes back on the page with why and what it held; anything else is the error page's. */
  async function orRefused(ctx: Context & { state: ConsoleState }, projectId: string, form: string, draft: StatusPageDraft, save: () => Promise<void>) {
    try {
      await save();
    } catch (error) {
      const refusal = error instanceof Refusal || error instanceof DomainError ? errorResponse(error) : null;
      if (!refusal || (refusal.status !== 400 && refusal.status !== 409)) throw error;
      const monitors = await listMonitors(readModels, projectId);
      const { message, field } = inFormWords(refusal.body.error, [...draft.monitors.keys()].map((id) => monitors.find((m) => m.id === id)?.name ?? id));
      await show(ctx, projectId, { form, error: message, field, draft, status: refusal.status });
    }
  }

  router.get('/projects/:projectId/sharing', signedIn, async (ctx) => {
    const projectId = pathId(ctx.params['projectId'], 'project');
    await gate(readModels, ctx.state.caller, READ, projectId);
    await show(ctx, projectId, null);
  });

  router.post('/projects/:projectId/sharing/badge-key', signedIn, async (ctx) => {
    const projectId = pathId(ctx.params['projectId'], 'project');
    await gate(readModels, ctx.state.caller, MANAGE_MONITORS, projectId);
    const outcome = await issueBadgeKey(commands, { project_id: projectId }, actorOf(ctx.state));
    await settled(deps, outcome.position);
    back(ctx, projectId, 'key-issued');
  });

  router.post('/projects/:projectId/sharing/status-pages', signedIn, async (ctx) => {
    const projectId = pathId(ctx.params['projectId'], 'project');
    await gate(readModels, ctx.state.caller, MANAGE_MONITORS, projectId);
    const draft = draftOf(decode(StatusPageForm, ctx.request.body, 'form'));
    await orRefused(ctx, projectId, 'new', draft, async () => {
      const body = decode(CreateStatusPageBody, bodyOf(draft));
      const monitors = monitorsOf(body.monitors ?? []);
      await assertProjectMonitors(readModels, projectId, monitors);
      const settings = { slug: body.slug, title: body.title.trim(), description: body.description ?? '', published: body.published ?? false, monitors };
      const { position } = await createStatusPage(commands, { project_id: projectId, settings }, actorOf(ctx.state));
      await settled(deps, position);
      back(ctx, projectId, 'created');
    });
  });

  const gatedPage = async (state: VigilState, projectId: string, rawId: string | undefined) => {
    await gate(readModels, state.caller, MANAGE_MONITORS, projectId);
    const page = await getStatusPage(readModels, pathId(rawId, 'status page'));
    if (!page || page.project_id !== projectId) throw new HttpError(404, 'status page not found');
    return page;
  };

  router.post('/projects/:projectId/sharing/status-pages/:statusPageId', signedIn, async (ctx) => {
    const projectId = pathId(ctx.params['projectId'], 'project');
    const page = await gatedPage(ctx.state, projectId, ctx.params['statusPageId']);
    const draft = draftOf(decode(StatusPageForm, ctx.request.body, 'form'));
    await orRefused(ctx, projectId, page.id, draft, async () => {
      const body = decode(UpdateStatusPageBody, bodyOf(draft));
      const monitors = monitorsOf(body.monitors ?? []);
      await assertProjectMonitors(readModels, projectId, monitors);
      const patch = { slug: draft.slug, title: draft.title.trim(), description: draft.description, published: draft.published, monitors };
      await settled(deps, await updateStatusPage(commands, page.id, patch, actorOf(ctx.state)));
      back(ctx, projectId, 'saved');
    });
  });

  router.get('/projects/:projectId/sharing/status-pages/:statusPageId/delete', signedIn, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const projectId = pathId(ctx.params['projectId'], 'project');
    const statusPage = await gatedPage(ctx.state, projectId, ctx.params['statusPageId']);
    const project = await getProject(readModels, projectId);
    if (!project) throw new HttpError(404, 'project not found');
    render(ctx, deleteStatusPagePage({ viewer: ctx.state.viewer, project, statusPage, origin: `${ctx.protocol}://${ctx.host}` }));
  });

  router.post('/projects/:projectId/sharing/status-pages/:statusPageId/delete', signedIn, async (ctx) => {
    const projectId = pathId(ctx.params['projectId'], 'project');
    const page = await gatedPage(ctx.state, projectId, ctx.params['statusPageId']);
    await settled(deps, await deleteStatusPage(commands, page.id, actorOf(ctx.state)));
    back(ctx, projectId, 'deleted');
  });
};
