import { Refusal } from '../../app/refusal.js';
import * as t from 'io-ts';
import type { Context } from 'koa';
import { CreateProjectBody, UpdateProjectBody } from '../../web/codecs/projects.js';
import { errorResponse } from '../../web/errors.js';
import { gate } from '../../app/gate.js';
import { CREATE, DESTROY, MANAGE, changeProject, newProject, removeProject } from '../../app/project-changes.js';
import { decode } from '../../web/validation.js';
import { DomainError } from '../../domain/errors.js';
import { listMonitors } from '../../queries/monitors.js';
import { projectDetails } from '../../queries/projects.js';
import { listStatusPages } from '../../queries/status-pages.js';
import { type Refused, deleteProjectPage, newProjectPage, projectSettingsPage } from '../pages/project-settings.js';
import type { ConsoleKit, ConsoleRoutes, ConsoleState } from '../kit.js';
import { render } from '../signed-in.js';
import { settingsTools } from './settings-tools.js';
import { requesterOf } from '../../web/dependencies.js';

const NameForm = t.partial({ name: t.string, description: t.string });
const ProjectForm = t.partial({
  name: t.string, description: t.string, ap_enabled: t.string, ap_max_per_hour: t.string, ap_type: t.string, ap_schedule: t.string, ap_timezone: t.string, ap_grace: t.string,
});

/** The API's field names, as the project form labels them (and the id of the input each is typed in). */
const LABELS: [RegExp, string, string][] = [
  [/\bauto_provisioning\.max_per_hour\b/, 'At most, per hour', 'ap-max'],
  [/\bauto_provisioning\.defaults\.type\b/, 'Type of monitor', 'ap-type'],
  [/\bauto_provisioning\.defaults\.schedule\b|\bschedule\b/, 'Schedule', 'ap-schedule'],
  [/\bauto_provisioning\.defaults\.timezone\b|\btimezone\b/, 'Time zone', 'ap-timezone'],
  [/\bauto_provisioning\.defaults\.grace_period_seconds\b|\bgrace_period_seconds\b/, 'Grace (seconds)', 'ap-grace'],
  [/^name\b/, 'Project name', 'project-name'],
  [/^description\b/, 'Description', 'project-description'],
];

/** A refused project form, in its own words, with what was typed. */
function refusedForm(error: unknown, values: Record<string, string>): Refused {
  const refusal = error instanceof Refusal || error instanceof DomainError ? errorResponse(error) : null;
  if (!refusal || refusal.status !== 400) throw error;
  let message = refusal.body.error;
  let field: string | null = null;
  for (const [pattern, label, id] of LABELS) {
    if (!pattern.test(message)) continue;
    field ??= id;
    message = message.replace(pattern, label);
  }
  return { error: message.charAt(0).toUpperCase() + message.slice(1), field, values };
}

const numberOr = (text: string | undefined): number | string | undefined => (text === undefined ? undefined : /^-?\d{1,9}$/.test(text.trim()) ? Number(text.trim()) : text);
const stringsOf = (body: unknown): Record<string, string> =>
  Object.fromEntries(Object.entries(typeof body === 'object' && body !== null ? body : {}).filter((e): e is [string, string] => typeof e[1] === 'string' && e[0] !== 'csrf_token'));

/** Projects from the console: create one (`/new-project`), change it and delete it (`/projects/<id>/settings/project`). */
export const projectRoutes: ConsoleRoutes = (kit: ConsoleKit) => {
  const { router, deps, signedIn, may } = kit;
  const { readModels } = deps;
  const { readableProject, frame, redirectDone } = settingsTools(kit);

  const mayCreate = async (ctx: Context & { state: ConsoleState }) => {
    try {
      await gate(readModels, ctx.state.caller, CREATE, null);
      return true;
    } catch (error) {
      if (error instanceof Refusal && error.status === 403) return false;
      throw error;
    }
  };

  router.get('/new-project', signedIn, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    render(ctx, newProjectPage({ viewer: ctx.state.viewer, refused: null, canCreate: await mayCreate(ctx) }));
  });

  router.post('/new-project', signedIn, async (ctx) => {
    await gate(readModels, ctx.state.caller, CREATE, null);
    const form = decode(NameForm, ctx.request.body, 'form');
    let projectId: string;
    try {
      projectId = await newProject(deps, requesterOf(deps, ctx.state), decode(CreateProjectBody, { name: (form.name ?? '').trim(), description: (form.description ?? '').trim() }, 'form'));
    } catch (error) {
      render(ctx, newProjectPage({ viewer: ctx.state.viewer, refused: refusedForm(error, stringsOf(ctx.request.body)), canCreate: true }), 400);
      return;
    }
    redirectDone(ctx, `/projects/${projectId}/settings/project`, 'project-created');
  });

  const rights = async (ctx: Context & { state: ConsoleState }, projectId: string) => {
    const [canManage, canDestroy] = await Promise.all([may(ctx.state.caller, MANAGE, projectId), may(ctx.state.caller, DESTROY, projectId)]);
    return { canManage, canDestroy };
  };

  router.get('/projects/:projectId/settings/project', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    render(ctx, projectSettingsPage({ ...frame(ctx, project), ...(await rights(ctx, project.id)), refused: null }));
  });

  router.post('/projects/:projectId/settings/project', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    await gate(readModels, ctx.state.caller, MANAGE, project.id);
    const form = decode(ProjectForm, ctx.request.body, 'form');
    try {
      const body = decode(UpdateProjectBody, {
        name: (form.name ?? '').trim(),
        description: (form.description ?? '').trim(),
        auto_provisioning: {
          enabled: form.ap_enabled !== undefined,
          max_per_hour: numberOr(form.ap_max_per_hour),
          defaults: { type: form.ap_type, schedule: form.ap_schedule?.trim(), timezone: form.ap_timezone?.trim(), grace_period_seconds: numberOr(form.ap_grace) },
        },
      }, 'form');
      await changeProject(deps, requesterOf(deps, ctx.state), project.id, body);
    } catch (error) {
      const refused = refusedForm(error, { ...stringsOf(ctx.request.body), ap_enabled: form.ap_enabled ?? '' });
      render(ctx, projectSettingsPage({ ...frame(ctx, project), ...(await rights(ctx, project.id)), refused }), 400);
      return;
    }
    redirectDone(ctx, `/projects/${project.id}/settings/project`, 'project-saved');
  });

  router.get('/projects/:projectId/settings/project/delete', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    await gate(readModels, ctx.state.caller, DESTROY, project.id);
    const [monitors, channels, groups, statusPages, [details]] = await Promise.all([
      listMonitors(readModels, project.id),
      readModels.find('notification_channels', { project_id: project.id }),
      readModels.find('notification_groups', { project_id: project.id }),
      listStatusPages(readModels, project.id),
      projectDetails(readModels, [project.id]),
    ]);
    render(ctx, deleteProjectPage({
      ...frame(ctx, project),
      loss: { monitors: monitors.length, channels: channels.length, groups: groups.length, statusPages: statusPages.length, members: details?.members.length ?? 0 },
    }));
  });

  router.post('/projects/:projectId/settings/project/delete', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    await gate(readModels, ctx.state.caller, DESTROY, project.id);
    await removeProject(deps, requesterOf(deps, ctx.state), project.id);
    ctx.status = 303;
    ctx.redirect('/');
  });
};
