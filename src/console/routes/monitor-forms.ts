import { Refusal } from '../../app/refusal.js';
import * as t from 'io-ts';
import type { Context } from 'koa';
import type { ChannelDocument } from '../../../projections/notification-channels.js';
import type { GroupDocument } from '../../../projections/notification-groups.js';
import type { IncidentDocument } from '../../../projections/incidents.js';
import type { MonitorDocument } from '../../../projections/monitors.js';
import { actorOf } from '../../web/actor.js';
import { CreateMonitorBody, UpdateMonitorBody } from '../../web/codecs/monitors.js';
import { deletion, settled } from '../../web/dependencies.js';
import { HttpError, errorResponse } from '../../web/errors.js';
import { gate } from '../../app/gate.js';
import { gatedMonitor, userActor } from '../../web/monitor-access.js';
import { configFromCreate, patchFromUpdate } from '../../web/monitor-input.js';
import { CREATE as CREATE_MONITOR, MANAGE as MANAGE_MONITOR, assertNotificationTargets } from '../../app/monitor-rules.js';
import { BoundedString, decode, pathId } from '../../web/validation.js';
import { deleteMonitor } from '../../app/monitor-deletion.js';
import { changeMonitor, createMonitor } from '../../app/monitors.js';
import { DomainError } from '../../domain/errors.js';
import type { MonitorType } from '../../domain/monitors/schedule.js';
import { dependentsOf, listMonitors } from '../../queries/monitors.js';
import { pingPage } from '../../queries/pings.js';
import { getProject } from '../../queries/projects.js';
import type { EscalationPolicyDocument } from '../../../projections/escalation-policies.js';
import { assertEscalationPolicy } from '../../app/escalation-steps.js';
import {
  FormRefusal, type MonitorDraft, MonitorForm, bodyOf, draftFromMonitor, draftOf, emptyDraft, inFormWords, isMonitorType, scheduleOf,
} from '../monitor-draft.js';
import { monitorDeletePage } from '../pages/monitor-delete.js';
import { monitorFormPage } from '../pages/monitor-form.js';
import type { ConsoleKit, ConsoleRoutes, ConsoleState } from '../kit.js';
import { render } from '../signed-in.js';
import { previewMarkup, schedulePreview } from '../schedule-preview.js';

const READ = { scope: 'read' } as const;

/** What the schedule preview is asked: the chosen type, and the schedule and zone as typed so far. */
const PreviewQuery = t.partial({ type: BoundedString(0, 20), schedule: BoundedString(0, 200), timezone: BoundedString(0, 64) });
const NewQuery = t.partial({ type: BoundedString(0, 20) });

/** The zones the time-zone field suggests, UTC first. */
let zones: string[] | null = null;
function timeZones(): string[] {
  zones ??= ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')];
  return zones;
}

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' });

/**
 * Monitors from the browser: the new-monitor form (`/projects/<id>/monitors/new`), edit
 * (`/monitors/<id>/edit`) and delete (`/monitors/<id>/delete`), each gated as its REST route is,
 * and the schedule preview the form's script asks for as the schedule is typed. A form becomes
 * the REST API's body and goes through the same codecs and app-layer commands as `POST` and
 * `PATCH /v1/monitors`; a refusal comes back in the form's words, with everything typed kept.
 */
export const monitorFormRoutes: ConsoleRoutes = (kit: ConsoleKit) => {
  const { router, deps, signedIn, clock } = kit;
  const { readModels, commands } = deps;

  async function showForm(ctx: Context & { state: ConsoleState }, projectId: string, monitor: MonitorDocument | null, draft: MonitorDraft, refusal: FormRefusal | null) {
    ctx.set('Cache-Control', 'no-store');
    const project = await getProject(readModels, projectId);
    if (!project) throw new HttpError(404, 'project not found');
    const [groups, channels, monitors, policies] = await Promise.all([
      readModels.find<GroupDocument>('notification_groups', { project_id: projectId }, { sort: [['created_at', 1]] }),
      readModels.find<ChannelDocument>('notification_channels', { project_id: projectId }, { sort: [['created_at', 1]] }),
      listMonitors(readModels, projectId),
      readModels.find<EscalationPolicyDocument>('escalation_policies', { project_id: projectId }, { sort: [['created_at', 1]] }),
    ]);
    const type: MonitorType = monitor?.type ?? (isMonitorType(draft.text.type) ? draft.text.type : 'JOB_CRON');
    render(ctx, monitorFormPage({
      viewer: ctx.state.viewer, project, monitor, draft, refusal: refusal && { field: refusal.field, message: refusal.message },
      preview: schedulePreview(type, scheduleOf(draft, type, monitor?.schedule ?? ''), draft.text.timezone, clock()),
      groups: groups.map((g) => g.doc), channels: channels.map((c) => c.doc), policies: policies.map((p) => p.doc),
      others: monitors.filter((m) => m.id !== monitor?.id).sort(byName), zones: timeZones(),
    }), refusal?.status ?? 200);
  }

  /** A refusal the form can show (the form's, the API codec's, the domain's); anything else goes on up. */
  function asRefusal(error: unknown, type: MonitorType): FormRefusal | null {
    if (error instanceof FormRefusal) return error;
    const answer = error instanceof Refusal || error instanceof DomainError ? errorResponse(error) : null;
    if (!answer || (answer.status !== 400 && answer.status !== 409)) return null;
    return inFormWords(answer.body.error, type, answer.status);
  }

  const toMonitor = (ctx: Context, monitorId: string, done: 'created' | 'updated') => {
    ctx.status = 303;
    ctx.redirect(`/monitors/${monitorId}?done=${done}`);
  };

  router.get('/projects/:projectId/monitors/new', signedIn, async (ctx) => {
    const projectId = pathId(ctx.params['projectId'], 'project');
    await gate(readModels, ctx.state.caller, CREATE_MONITOR, projectId);
    const draft = emptyDraft();
    const { type } = decode(NewQuery, ctx.query, 'query');
    if (type !== undefined && isMonitorType(type)) draft.text.type = type;
    await showForm(ctx, projectId, null, draft, null);
  });

  router.post('/projects/:projectId/monitors', signedIn, async (ctx) => {
    const projectId = pathId(ctx.params['projectId'], 'project');
    await gate(readModels, ctx.state.caller, CREATE_MONITOR, projectId);
    const draft = draftOf(decode(MonitorForm, ctx.request.body, 'form'));
    const chosen = draft.text.type;
    const type: MonitorType = isMonitorType(chosen) ? chosen : 'JOB_CRON';
    try {
      if (!isMonitorType(chosen)) throw new FormRefusal('type', 'Choose what to monitor: one of the types listed');
      const body = decode(CreateMonitorBody, bodyOf(draft, type, 'none'));
      const config = configFromCreate(body);
      await assertNotificationTargets(readModels, projectId, config.notification_group_ids, config.notification_channel_ids);
      await assertEscalationPolicy(readModels, projectId, config.escalation_policy_id);
      const { monitorId, position } = await createMonitor(commands, { project_id: projectId, config, slugGiven: body.slug !== undefined }, actorOf(ctx.state));
      await settled(deps, position);
      toMonitor(ctx, monitorId, 'created');
    } catch (error) {
      const refusal = asRefusal(error, type);
      if (!refusal) throw error;
      await showForm(ctx, projectId, null, draft, refusal);
    }
  });

  router.get('/projects/:projectId/monitors/preview', signedIn, async (ctx) => {
    const projectId = pathId(ctx.params['projectId'], 'project');
    await gate(readModels, ctx.state.caller, READ, projectId);
    const query = decode(PreviewQuery, ctx.query, 'query');
    const type = query.type !== undefined && isMonitorType(query.type) ? query.type : 'JOB_CRON';
    const zone = query.timezone ?? 'UTC';
    ctx.set('Cache-Control', 'no-store');
    render(ctx, previewMarkup(schedulePreview(type, query.schedule ?? '', zone, clock())));
  });

  router.get('/monitors/:monitorId/edit', signedIn, async (ctx) => {
    const monitor = await gatedMonitor(readModels, ctx.state, ctx.params['monitorId'], MANAGE_MONITOR);
    await showForm(ctx, monitor.project_id, monitor, draftFromMonitor(monitor), null);
  });

  router.post('/monitors/:monitorId/edit', signedIn, async (ctx) => {
    const monitor = await gatedMonitor(readModels, ctx.state, ctx.params['monitorId'], MANAGE_MONITOR);
    const draft = draftOf(decode(MonitorForm, ctx.request.body, 'form'));
    try {
      // A type other than the monitor's is refused, in the API's words: a monitor keeps its type.
      const body = decode(UpdateMonitorBody, { ...bodyOf(draft, monitor.type, monitor.schedule), type: draft.text.type || monitor.type });
      const patch = patchFromUpdate(body, monitor.type);
      await assertNotificationTargets(readModels, monitor.project_id, patch.notification_group_ids ?? [], patch.notification_channel_ids ?? []);
      await assertEscalationPolicy(readModels, monitor.project_id, patch.escalation_policy_id);
      const outcome = await changeMonitor(commands, monitor.id, { patch, status: null, by: null }, actorOf(ctx.state));
      await settled(deps, outcome.position);
      toMonitor(ctx, monitor.id, 'updated');
    } catch (error) {
      const refusal = asRefusal(error, monitor.type);
      if (!refusal) throw error;
      draft.text.type = monitor.type;
      await showForm(ctx, monitor.project_id, monitor, draft, refusal);
    }
  });

  async function showDelete(ctx: Context & { state: ConsoleState }, monitor: MonitorDocument, status = 200) {
    ctx.set('Cache-Control', 'no-store');
    const project = await getProject(readModels, monitor.project_id);
    if (!project) throw new HttpError(404, 'monitor not found');
    const [pings, incidents, dependents] = await Promise.all([
      pingPage(commands.events, monitor.id, {}, { page: 1, limit: 1 }),
      readModels.find<IncidentDocument>('incidents', { monitor_id: monitor.id }),
      dependentsOf(readModels, monitor),
    ]);
    render(ctx, monitorDeletePage({
      viewer: ctx.state.viewer, project, monitor, pings: pings.total, incidents: incidents.length,
      openIncidents: incidents.filter((i) => i.doc.status !== 'RESOLVED').length,
      dependents: dependents.sort(byName).map((d) => ({ id: d.id, name: d.name })),
    }), status);
  }

  router.get('/monitors/:monitorId/delete', signedIn, async (ctx) => {
    const monitor = await gatedMonitor(readModels, ctx.state, ctx.params['monitorId'], MANAGE_MONITOR);
    await showDelete(ctx, monitor);
  });

  router.post('/monitors/:monitorId/delete', signedIn, async (ctx) => {
    const monitor = await gatedMonitor(readModels, ctx.state, ctx.params['monitorId'], MANAGE_MONITOR);
    // As DELETE /v1/monitors/<id>: not while others depend on it (the page says which).
    if ((await dependentsOf(readModels, monitor)).length > 0) return showDelete(ctx, monitor, 409);
    const position = await deleteMonitor(deletion(deps), monitor.id, await userActor(readModels, ctx.state), actorOf(ctx.state));
    await settled(deps, position);
    ctx.status = 303;
    ctx.redirect(`/projects/${monitor.project_id}?done=monitor-deleted`);
  });
};
