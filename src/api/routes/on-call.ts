import type { Router } from '@koa/router';
import type { OnCallScheduleDocument } from '../../../projections/on-call-schedules.js';
import { createOnCallSchedule, deleteOnCallSchedule, updateOnCallSchedule } from '../../app/on-call.js';
import type { OnCallScheduleSettings } from '../../domain/on-call/schedule.js';
import { actorOf } from '../../web/actor.js';
import { CreateOnCallScheduleBody, UpdateOnCallScheduleBody } from '../../web/codecs/on-call.js';
import { ProjectScopeQuery, queryFields } from '../../web/codecs/queries.js';
import { type ApiDependencies, settled } from '../../web/dependencies.js';
import { HttpError } from '../../web/errors.js';
import { gate } from '../../app/gate.js';
import { gatedDocument, targetProject } from '../../web/monitor-access.js';
import { onCallScheduleBody, rotationDays } from '../../web/representations/on-call.js';
import type { VigilState } from '../../web/state.js';
import { decode } from '../../web/validation.js';
import type { Requirement } from '../../domain/access/authorize.js';
import { DESTROY, WRITE } from '../../app/channel-changes.js';

const READ = { scope: 'read' } as const;

/**
 * On-call schedules: rotations of project members, read by escalation steps that page "whoever is
 * on call" (through that person's own channels). Roles and scopes as notification groups: reading
 * needs `read`, writing `manage_notifications` with MANAGER, deleting `destroy` with OWNER.
 */
export function onCallRoutes(router: Router<VigilState>, deps: ApiDependencies): void {
  const { readModels, commands } = deps;
  const now = () => commands.clock().toISOString();
  const gatedSchedule = (state: VigilState, rawId: string | undefined, requirement: Requirement) =>
    gatedDocument<OnCallScheduleDocument>(readModels, state, 'on_call_schedules', rawId, 'on-call schedule', requirement);
  const fresh = async (id: string) => {
    const doc = (await readModels.get<OnCallScheduleDocument>('on_call_schedules', id))?.doc;
    if (!doc) throw new HttpError(404, 'on-call schedule not found');
    return onCallScheduleBody(doc, now());
  };

  router.get('/on-call-schedules', async (ctx) => {
    const query = decode(ProjectScopeQuery, queryFields(ctx.query, ProjectScopeQuery), 'query');
    const projectId = targetProject(ctx.state, query.project_id);
    await gate(readModels, ctx.state.caller, READ, projectId);
    const found = await readModels.find<OnCallScheduleDocument>('on_call_schedules', { project_id: projectId }, { sort: [['created_at', 1]] });
    ctx.body = { on_call_schedules: found.map((s) => onCallScheduleBody(s.doc, now())) };
  });

  router.get('/on-call-schedules/:scheduleId', async (ctx) => {
    ctx.body = { on_call_schedule: onCallScheduleBody(await gatedSchedule(ctx.state, ctx.params['scheduleId'], READ), now()) };
  });

  router.post('/on-call-schedules', async (ctx) => {
    await gate(readModels, ctx.state.caller, { scope: 'manage_notifications', accountKeyOnly: true }, null);
    const body = decode(CreateOnCallScheduleBody, ctx.request.body);
    const projectId = targetProject(ctx.state, body.project_id);
    await gate(readModels, ctx.state.caller, WRITE, projectId);
    const settings: OnCallScheduleSettings = {
      name: body.name, time_zone: body.time_zone, handoff_time: body.handoff_time, rotation_days: rotationDays(body.rotation),
      participants: body.participants, starts_on: body.starts_on, overrides: body.overrides ?? [],
    };
    const { scheduleId, position } = await createOnCallSchedule(commands, projectId, settings, actorOf(ctx.state));
    await settled(deps, position, ctx.state);
    ctx.status = 201;
    ctx.body = { on_call_schedule: await fresh(scheduleId) };
  });

  router.patch('/on-call-schedules/:scheduleId', async (ctx) => {
    const schedule = await gatedSchedule(ctx.state, ctx.params['scheduleId'], WRITE);
    const { rotation, ...rest } = decode(UpdateOnCallScheduleBody, ctx.request.body);
    const changes: Partial<OnCallScheduleSettings> = { ...rest, ...(rotation !== undefined ? { rotation_days: rotationDays(rotation) } : {}) };
    const outcome = await updateOnCallSchedule(commands, schedule, changes, actorOf(ctx.state));
    await settled(deps, outcome.position, ctx.state);
    ctx.body = { on_call_schedule: await fresh(schedule.id) };
  });

  router.delete('/on-call-schedules/:scheduleId', async (ctx) => {
    const schedule = await gatedSchedule(ctx.state, ctx.params['scheduleId'], DESTROY);
    const outcome = await deleteOnCallSchedule(commands, readModels, schedule, actorOf(ctx.state));
    await settled(deps, outcome.position, ctx.state);
    ctx.status = 204;
  });
}
