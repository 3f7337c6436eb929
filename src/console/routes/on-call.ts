import { Refusal } from '../../app/refusal.js';
import * as t from 'io-ts';
import type { Context } from 'koa';
import type { ChannelDocument } from '../../../projections/notification-channels.js';
import type { OnCallScheduleDocument } from '../../../projections/on-call-schedules.js';
import type { MemberDocument } from '../../../projections/project-members.js';
import type { ProjectDocument } from '../../../projections/projects.js';
import { actorOf } from '../../web/actor.js';
import { CreateOnCallScheduleBody, UpdateOnCallScheduleBody } from '../../web/codecs/on-call.js';
import { settled } from '../../web/dependencies.js';
import { gate } from '../../app/gate.js';
import { rotationDays } from '../../web/representations/on-call.js';
import { DESTROY, WRITE as WRITE_NOTIFICATIONS } from '../../app/channel-changes.js';
import { decode } from '../../web/validation.js';
import { DomainError } from '../../domain/errors.js';
import { createOnCallSchedule, deleteOnCallSchedule, onCallNowAndNext, policiesPagingSchedule, updateOnCallSchedule } from '../../app/on-call.js';
import { getUsers } from '../../queries/identity.js';
import { type ScheduleFormValues, formValuesOf, scheduleBodyFromForm, typedFormValues } from '../on-call-form.js';
import { type Person, deleteSchedulePage, scheduleFormPage, schedulePage, schedulesPage } from '../pages/on-call.js';
import type { ConsoleKit, ConsoleRoutes, ConsoleState } from '../kit.js';
import { render } from '../signed-in.js';
import { settingsTools } from './settings-tools.js';

type Ctx = Context & { state: ConsoleState };

const FIELDS: [RegExp, string, string][] = [
  [/^name\b/, 'schedule-name', 'Name'],
  [/^time_zone\b/, 'schedule-time-zone', 'Time zone'],
  [/^handoff_time\b/, 'schedule-handoff-time', 'Hand-off time'],
  [/^rotation\b/, 'schedule-rotation', 'Each turn lasts'],
  [/^starts_on\b/, 'schedule-starts-on', 'First turn starts on'],
  [/^participants(\[\d+\])?/, 'schedule-participants', 'Rotation'],
  [/^overrides(\[(\d+)\])?(\.\w+)?/, 'schedule-overrides', 'Overrides'],
];

/** A refusal in the form's words, with the field it names. */
function refusal(error: unknown): { field: string | null; message: string } {
  const message = error instanceof Refusal && error.status === 400 ? error.message : error instanceof DomainError && error.reason === 'invalid' ? error.message : null;
  if (message === null) throw error;
  for (const [pattern, field, label] of FIELDS) if (pattern.test(message)) return { field, message: message.replace(pattern, label) };
  return { field: null, message };
}

/** On-call schedules of a project (`/projects/<id>/settings/on-call`): list with who is on call, a page each, create, edit, delete. */
export const onCallRoutes: ConsoleRoutes = (kit: ConsoleKit) => {
  const { router, deps, signedIn, may, clock } = kit;
  const { readModels, commands } = deps;
  const { readableProject, frame, projectDocument } = settingsTools(kit);
  const path = (projectId: string) => `/projects/${projectId}/settings/on-call`;
  const now = () => clock().toISOString();

  async function members(projectId: string): Promise<Person[]> {
    const memberships = (await readModels.find<MemberDocument>('project_members', { project_id: projectId })).map((s) => s.doc);
    const users = await getUsers(readModels, memberships.map((m) => m.user_id));
    return memberships.flatMap((m) => {
      const user = users.get(m.user_id);
      return user ? [{ id: user.id, email: user.email, name: `${user.first_name} ${user.last_name}`.trim() || user.email }] : [];
    }).sort((a, b) => a.name.localeCompare(b.name));
  }
  const peopleOf = async (projectId: string) => new Map((await members(projectId)).map((p) => [p.id, p]));

  const schedules = (projectId: string) => readModels.find<OnCallScheduleDocument>('on_call_schedules', { project_id: projectId }, { sort: [['created_at', 1]] });
  const scheduleOf = (ctx: Ctx, requirement: Parameters<typeof gate>[2]) => projectDocument<OnCallScheduleDocument>(ctx, 'on_call_schedules', 'scheduleId', 'on-call schedule', requirement);

  router.get('/projects/:projectId/settings/on-call', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    const [found, people, canWrite] = await Promise.all([schedules(project.id), peopleOf(project.id), may(ctx.state.caller, WRITE_NOTIFICATIONS, project.id)]);
    render(ctx, schedulesPage({ ...frame(ctx, project), rows: found.map(({ doc }) => ({ schedule: doc, shifts: onCallNowAndNext(doc, now(), 2) })), people, canWrite }));
  });

  const showForm = async (ctx: Ctx, project: ProjectDocument, schedule: OnCallScheduleDocument | null, values: ScheduleFormValues, error: { field: string | null; message: string } | null) =>
    render(ctx, scheduleFormPage({ ...frame(ctx, project), schedule, values, members: await members(project.id), error }), error ? 400 : 200);

  router.get('/projects/:projectId/settings/on-call/new', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    await gate(readModels, ctx.state.caller, WRITE_NOTIFICATIONS, project.id);
    const today = now().slice(0, 10);
    await showForm(ctx, project, null, { name: '', time_zone: 'UTC', handoff_time: '09:00', rotation_days: '7', starts_on: today, participants: [], overrides: [] }, null);
  });

  router.post('/projects/:projectId/settings/on-call', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    await gate(readModels, ctx.state.caller, WRITE_NOTIFICATIONS, project.id);
    const form = decode(t.UnknownRecord, ctx.request.body, 'form');
    try {
      const body = decode(CreateOnCallScheduleBody, scheduleBodyFromForm(form), 'form');
      const { scheduleId, position } = await createOnCallSchedule(commands, project.id, {
        name: body.name, time_zone: body.time_zone, handoff_time: body.handoff_time, rotation_days: rotationDays(body.rotation),
        participants: body.participants, starts_on: body.starts_on, overrides: body.overrides ?? [],
      }, actorOf(ctx.state));
      await settled(deps, position);
      ctx.status = 303;
      ctx.redirect(`${path(project.id)}/${scheduleId}`);
    } catch (error) {
      await showForm(ctx, project, null, typedFormValues(form), refusal(error));
    }
  });

  router.get('/projects/:projectId/settings/on-call/:scheduleId', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    const schedule = await scheduleOf(ctx, { scope: 'read' });
    const [people, channels, canWrite, canDestroy] = await Promise.all([
      peopleOf(project.id),
      readModels.find<ChannelDocument>('notification_channels', { project_id: project.id }),
      may(ctx.state.caller, WRITE_NOTIFICATIONS, project.id),
      may(ctx.state.caller, DESTROY, project.id),
    ]);
    const ownChannels = new Map<string, number>();
    for (const { doc } of channels) if (doc.owner_user_id && doc.enabled) ownChannels.set(doc.owner_user_id, (ownChannels.get(doc.owner_user_id) ?? 0) + 1);
    render(ctx, schedulePage({ ...frame(ctx, project), schedule, shifts: onCallNowAndNext(schedule, now(), 3), people, ownChannels, canWrite, canDestroy }));
  });

  router.get('/projects/:projectId/settings/on-call/:scheduleId/edit', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    const schedule = await scheduleOf(ctx, WRITE_NOTIFICATIONS);
    await showForm(ctx, project, schedule, formValuesOf(schedule), null);
  });

  router.post('/projects/:projectId/settings/on-call/:scheduleId', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    const schedule = await scheduleOf(ctx, WRITE_NOTIFICATIONS);
    const form = decode(t.UnknownRecord, ctx.request.body, 'form');
    try {
      const { rotation, ...rest } = decode(UpdateOnCallScheduleBody, scheduleBodyFromForm(form), 'form');
      const outcome = await updateOnCallSchedule(commands, schedule, { ...rest, ...(rotation !== undefined ? { rotation_days: rotationDays(rotation) } : {}) }, actorOf(ctx.state));
      await settled(deps, outcome.position);
      ctx.status = 303;
      ctx.redirect(`${path(project.id)}/${schedule.id}`);
    } catch (error) {
      await showForm(ctx, project, schedule, typedFormValues(form), refusal(error));
    }
  });

  router.get('/projects/:projectId/settings/on-call/:scheduleId/delete', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    const schedule = await scheduleOf(ctx, DESTROY);
    render(ctx, deleteSchedulePage({ ...frame(ctx, project), schedule, pagedBy: await policiesPagingSchedule(readModels, schedule) }));
  });

  router.post('/projects/:projectId/settings/on-call/:scheduleId/delete', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    const schedule = await scheduleOf(ctx, DESTROY);
    await settled(deps, (await deleteOnCallSchedule(commands, readModels, schedule, actorOf(ctx.state))).position);
    ctx.status = 303;
    ctx.redirect(path(project.id));
  });
};
