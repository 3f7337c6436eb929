import * as t from 'io-ts';
import type { Context } from 'koa';
import type { ChannelDocument } from '../../../projections/notification-channels.js';
import type { GroupDocument } from '../../../projections/notification-groups.js';
import type { ProjectDocument } from '../../../projections/projects.js';
import { CHANNEL_TYPE_SPECS } from '../../api/codecs/channel-configs.js';
import { AttachChannelBody, CreateChannelBody, CreateGroupBody } from '../../api/codecs/notifications.js';
import { settled } from '../../api/dependencies.js';
import { HttpError, badRequest } from '../../api/errors.js';
import { gate } from '../../api/gate.js';
import { actorOf } from '../../api/actor.js';
import { gatedDocument } from '../../api/monitor-access.js';
import { DESTROY as DESTROY_CHANNEL, WRITE as WRITE_NOTIFICATIONS, addChannel, deliveryGuard, sendTestMessage } from '../../api/routes/notifications.js';
import type { VigilState } from '../../api/state.js';
import { decode, pathId } from '../../api/validation.js';
import { attachChannel, createGroup, deleteChannel, detachChannel } from '../../app/notifications.js';
import { CHANNEL_TYPES, type ChannelType } from '../../domain/notifications/channel.js';
import { listMonitors } from '../../queries/monitors.js';
import type { ConsoleKit, ConsoleRoutes, ConsoleState } from '../routes.js';
import { render } from '../routes.js';
import { type ChannelTypeInfo, channelCreatedPage, channelsPage, newChannelPage } from '../pages/settings.js';
import { formBody, numberOr, readableProject as readableProjectOf, redirectDone, settingsFrame, settingsPath } from './settings-common.js';

/** What each settings POST did, shown once on the page it returns to. */
const DONE = {
  'channel-created': 'Channel created.',
  'channel-deleted': 'Channel deleted.',
  'group-created': 'Group created.',
  attached: 'Channel attached to the group.',
  detached: 'Channel detached from the group.',
} as const;

/** The channel types and their config fields: the source `GET /v1/notification-channels/types` answers from. */
const CHANNEL_TYPE_INFO: ChannelTypeInfo[] = CHANNEL_TYPES.map((type) => ({ type, name: CHANNEL_TYPE_SPECS[type].name, schema: CHANNEL_TYPE_SPECS[type].schema }));

const TypeQuery = t.type({ type: t.keyof(Object.fromEntries(CHANNEL_TYPES.map((c) => [c, null])) as Record<ChannelType, null>) });
const ChannelForm = t.intersection([t.type({ type: t.string, name: t.string }), t.partial({ is_default: t.string })]);
const GroupForm = t.intersection([t.type({ name: t.string }), t.partial({ description: t.string })]);
const ChannelIdForm = t.type({ channel_id: t.string });

/**
 * A channel's config from the form: `config_<field>` inputs, empty ones left out; headers one
 * `Name: value` a line, lists one entry a line.
 */
function configFromForm(type: ChannelType, form: Record<string, unknown>): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(CHANNEL_TYPE_SPECS[type].schema)) {
    const raw = form[`config_${name}`];
    if (typeof raw !== 'string' || raw.trim() === '') continue;
    const lines = raw.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
    if (field.type === 'object') {
      config[name] = Object.fromEntries(lines.map((line) => {
        const colon = line.indexOf(':');
        return colon < 0 ? [line, ''] : [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
      }));
    } else if (field.type.startsWith('array')) config[name] = lines;
    else if (field.type === 'integer') config[name] = numberOr(raw);
    else config[name] = raw.trim();
  }
  return config;
}

/** Settings of a project: its notification channels and groups (API keys and members: routes/keys.ts, routes/members.ts). */
export const settingsRoutes: ConsoleRoutes = (kit: ConsoleKit) => {
  const { router, deps, signedIn, may, clock } = kit;
  const { readModels, commands } = deps;
  const outbound = deliveryGuard(deps);

  const readableProject = (ctx: Context & { state: ConsoleState }) => readableProjectOf(deps, ctx);
  const frame = (ctx: Context & { state: ConsoleState }, project: ProjectDocument) => settingsFrame(ctx, project, DONE);

  /** A channel or group named in the path, of this project, after the same gate as its REST route. */
  async function projectDocument<D extends { project_id: string }>(ctx: Context & { state: ConsoleState }, collection: string, param: string, resource: string, requirement: Parameters<typeof gate>[2]): Promise<D> {
    const projectId = pathId(ctx.params['projectId'], 'project');
    const doc = await gatedDocument<D>(readModels, ctx.state as VigilState, collection, ctx.params[param], resource, requirement);
    if (doc.project_id !== projectId) throw new HttpError(404, `${resource} not found`);
    return doc;
  }

  async function channelsView(ctx: Context & { state: ConsoleState }, project: ProjectDocument) {
    const [channels, groups, monitors, canWrite, canDestroy] = await Promise.all([
      readModels.find<ChannelDocument>('notification_channels', { project_id: project.id }, { sort: [['created_at', 1]] }),
      readModels.find<GroupDocument>('notification_groups', { project_id: project.id }, { sort: [['created_at', 1]] }),
      listMonitors(readModels, project.id),
      may(ctx.state.caller, WRITE_NOTIFICATIONS, project.id),
      may(ctx.state.caller, DESTROY_CHANNEL, project.id),
    ]);
    const monitorsOfGroup = new Map(groups.map((g) => [g.doc.id, monitors.filter((m) => m.notification_group_ids.includes(g.doc.id)).map((m) => ({ id: m.id, name: m.name }))]));
    return { ...frame(ctx, project), channels: channels.map((c) => c.doc), groups: groups.map((g) => g.doc), monitorsOfGroup, types: CHANNEL_TYPE_INFO, canWrite, canDestroy, now: clock() };
  }

  router.get('/projects/:projectId/settings', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    ctx.status = 303;
    ctx.redirect(settingsPath(project.id, 'channels'));
  });

  router.get('/projects/:projectId/settings/channels', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    render(ctx, channelsPage(await channelsView(ctx, project)));
  });

  router.get('/projects/:projectId/settings/channels/new', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    await gate(readModels, ctx.state.caller, WRITE_NOTIFICATIONS, project.id);
    const { type } = decode(TypeQuery, ctx.query, 'query');
    render(ctx, newChannelPage({ ...frame(ctx, project), type: CHANNEL_TYPE_INFO.find((i) => i.type === type)!, values: {}, error: null }));
  });

  router.post('/projects/:projectId/settings/channels', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    await gate(readModels, ctx.state.caller, WRITE_NOTIFICATIONS, project.id);
    const form = formBody(ctx, ChannelForm);
    const { type } = decode(TypeQuery, { type: form.type }, 'form');
    const fields = ctx.request.body as Record<string, unknown>;
    try {
      const body = decode(CreateChannelBody, { name: form.name.trim(), type, config: configFromForm(type, fields), ...(form.is_default ? { is_default: true } : {}) }, 'form');
      const { channelId, generatedSecret } = await addChannel(deps, ctx.state, project.id, body, outbound);
      if (generatedSecret) {
        render(ctx, channelCreatedPage({ ...frame(ctx, project), channel: { id: channelId, name: body.name }, signingSecret: generatedSecret }), 201);
        return;
      }
      redirectDone(ctx, settingsPath(project.id, 'channels'), 'channel-created');
    } catch (error) {
      if (!(error instanceof HttpError) || error.status !== 400) throw error;
      // The form again, with what was typed (never the secrets) and the field at fault.
      const field = /^config\.(\w+)/.exec(error.message)?.[1] ?? (/^name\b/.test(error.message) ? 'name' : null);
      const values = Object.fromEntries(Object.entries(fields).filter((e): e is [string, string] => typeof e[1] === 'string' && e[0] !== 'csrf_token'));
      render(ctx, newChannelPage({ ...frame(ctx, project), type: CHANNEL_TYPE_INFO.find((i) => i.type === type)!, values, error: { field, message: error.message } }), 400);
    }
  });

  router.post('/projects/:projectId/settings/channels/:channelId/test', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    const channel = await projectDocument<ChannelDocument>(ctx, 'notification_channels', 'channelId', 'notification channel', WRITE_NOTIFICATIONS);
    const outcome = await sendTestMessage(deps, channel, outbound);
    // The outcome is this answer's alone: a reload asks before sending another.
    const view = await channelsView(ctx, project);
    render(ctx, channelsPage(outcome.delivered
      ? { ...view, notice: `Test message delivered to ${channel.name}.` }
      : { ...view, notice: null, problem: `The test message to ${channel.name} was not delivered: ${outcome.error ?? 'delivery failed'}` }));
  });

  router.post('/projects/:projectId/settings/channels/:channelId/delete', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    const channel = await projectDocument<ChannelDocument>(ctx, 'notification_channels', 'channelId', 'notification channel', DESTROY_CHANNEL);
    await settled(deps, await deleteChannel(commands, readModels, channel.id, channel.project_id, actorOf(ctx.state)));
    redirectDone(ctx, settingsPath(project.id, 'channels'), 'channel-deleted');
  });

  router.post('/projects/:projectId/settings/groups', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    await gate(readModels, ctx.state.caller, WRITE_NOTIFICATIONS, project.id);
    const form = formBody(ctx, GroupForm);
    const body = decode(CreateGroupBody, { name: form.name.trim(), description: (form.description ?? '').trim() }, 'form');
    const { position } = await createGroup(commands, { project_id: project.id, settings: { name: body.name, description: body.description ?? '', is_default: false } }, actorOf(ctx.state));
    await settled(deps, position);
    redirectDone(ctx, settingsPath(project.id, 'channels'), 'group-created');
  });

  for (const [action, done] of [['attach', 'attached'], ['detach', 'detached']] as const) {
    router.post(`/projects/:projectId/settings/groups/:groupId/${action}`, signedIn, async (ctx) => {
      const project = await readableProject(ctx);
      const group = await projectDocument<GroupDocument>(ctx, 'notification_groups', 'groupId', 'notification group', WRITE_NOTIFICATIONS);
      const { channel_id: channelId } = decode(AttachChannelBody, formBody(ctx, ChannelIdForm), 'form');
      const channel = (await readModels.get<ChannelDocument>('notification_channels', channelId))?.doc;
      // The console attaches this project's channels only (the API also takes channels of other projects the caller is in).
      if (action === 'attach' && (!channel || channel.project_id !== project.id)) throw badRequest('channel_id must name a channel of this project');
      const outcome = action === 'attach'
        ? await attachChannel(commands, group.id, channelId, actorOf(ctx.state))
        : await detachChannel(commands, group.id, channelId, actorOf(ctx.state));
      await settled(deps, outcome.position);
      redirectDone(ctx, settingsPath(project.id, 'channels'), done);
    });
  }

};
