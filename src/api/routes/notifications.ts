import type { Router } from '@koa/router';
import { attachChannel, createGroup, deleteChannel, deleteGroup, detachChannel, updateGroup } from '../../app/notifications.js';
import { getProject } from '../../queries/projects.js';
import { getUser } from '../../queries/identity.js';
import { listMonitors } from '../../queries/monitors.js';
import type { ReadModelStore } from '../../readstore/read-model-store.js';
import type { ChannelDocument } from '../../../projections/notification-channels.js';
import type { GroupDocument } from '../../../projections/notification-groups.js';
import { actorOf } from '../../web/actor.js';
import { CHANNEL_TYPE_SPECS } from '../../web/codecs/channel-configs.js';
import { AttachChannelBody, CreateChannelBody, CreateGroupBody, UpdateChannelBody, UpdateGroupBody } from '../../web/codecs/notifications.js';
import { type ApiDependencies, settled, requesterOf } from '../../web/dependencies.js';
import { HttpError } from '../../web/errors.js';
import { gate } from '../../app/gate.js';
import { canReach } from '../../domain/access/authorize.js';
import { roleOf } from '../../queries/identity.js';
import { gatedDocument, targetProject } from '../../web/monitor-access.js';
import type { Requirement } from '../../domain/access/authorize.js';
import { userBody } from '../../web/representations/projects.js';
import type { VigilState } from '../../web/state.js';
import { ProjectScopeQuery, queryFields } from '../../web/codecs/queries.js';
import { decode, pathId } from '../../web/validation.js';
import { WRITE, DESTROY, OWN_CHANNEL, addChannel, changeChannel, sendTestMessage } from '../../app/channel-changes.js';
import { channelDependencies } from '../../web/channels.js';

const READ = { scope: 'read' } as const;
async function ownerOf(readModels: ReadModelStore, projectId: string) {
  const project = await getProject(readModels, projectId);
  return project ? userBody((await getUser(readModels, project.owner_id)) ?? undefined) : null;
}

/** List item, exactly the keys docs/api.md lists; secrets never leave, not even sealed. */
function channelItem(doc: ChannelDocument, owner: ReturnType<typeof userBody>) {
  return {
    id: doc.id, project_id: doc.project_id, name: doc.name, type: doc.type, enabled: doc.enabled, is_default: doc.is_default,
    quiet_hours: doc.quiet_hours ?? null, owner_user_id: doc.owner_user_id ?? null,
    last_delivery_at: doc.last_delivery_at, last_error: doc.last_error, owner, created_at: doc.created_at, updated_at: doc.updated_at,
  };
}

/** The single read adds which config fields are set (never their values). */
function channelBody(doc: ChannelDocument, owner: ReturnType<typeof userBody>) {
  return { ...channelItem(doc, owner), config_fields_set: doc.config_fields };
}

export function notificationRoutes(router: Router<VigilState>, deps: ApiDependencies): void {
  const { readModels, commands } = deps;
  const channelDeps = channelDependencies(deps);

  const gatedChannel = (state: VigilState, rawId: string | undefined, requirement: Requirement) =>
    gatedDocument<ChannelDocument>(readModels, state, 'notification_channels', rawId, 'notification channel', requirement);
  const gatedGroup = (state: VigilState, rawId: string | undefined, requirement: Requirement) =>
    gatedDocument<GroupDocument>(readModels, state, 'notification_groups', rawId, 'notification group', requirement);

  /** The channel, when it is the caller's own and they may keep it (OWN_CHANNEL); null otherwise. */
  const ownChannel = async (state: VigilState, rawId: string | undefined): Promise<ChannelDocument | null> => {
    try {
      const channel = await gatedChannel(state, rawId, OWN_CHANNEL);
      return channel.owner_user_id === state.caller.userId ? channel : null;
    } catch {
      return null;
    }
  };

  const freshChannel = async (id: string) => {
    const doc = (await readModels.get<ChannelDocument>('notification_channels', id))?.doc;
    if (!doc) throw new HttpError(404, 'notification channel not found');
    return channelBody(doc, await ownerOf(readModels, doc.project_id));
  };

  async function groupChannels(group: GroupDocument) {
    const owner = await ownerOf(readModels, group.project_id);
    const channels = await readModels.find<ChannelDocument>('notification_channels', { id: { $in: group.channel_ids } });
    return channels.map((s) => channelItem(s.doc, owner));
  }

  async function groupItem(group: GroupDocument, monitors: { id: string; name: string; notification_group_ids: string[] }[]) {
    return {
      id: group.id, project_id: group.project_id, name: group.name, description: group.description, is_default: group.is_default,
      channel_count: group.channel_ids.length,
      monitors: monitors.filter((m) => m.notification_group_ids.includes(group.id)).map((m) => ({ id: m.id, name: m.name })),
    };
  }

  router.get('/notification-channels/types', async (ctx) => {
    await gate(readModels, ctx.state.caller, READ, null);
    ctx.body = { types: Object.entries(CHANNEL_TYPE_SPECS).map(([type, spec]) => ({ type, name: spec.name, config_schema: spec.schema })) };
  });

  router.get('/notification-channels', async (ctx) => {
    const query = decode(ProjectScopeQuery, queryFields(ctx.query, ProjectScopeQuery), 'query');
    const projectId = targetProject(ctx.state, query.project_id);
    await gate(readModels, ctx.state.caller, READ, projectId);
    const owner = await ownerOf(readModels, projectId);
    const found = await readModels.find<ChannelDocument>('notification_channels', { project_id: projectId }, { sort: [['created_at', 1]] });
    ctx.body = found.map((s) => channelItem(s.doc, owner));
  });

  router.get('/notification-channels/:channelId', async (ctx) => {
    const channel = await gatedChannel(ctx.state, ctx.params['channelId'], READ);
    ctx.body = { channel: channelBody(channel, await ownerOf(readModels, channel.project_id)) };
  });

  router.post('/notification-channels', async (ctx) => {
    await gate(readModels, ctx.state.caller, { scope: 'manage_notifications', accountKeyOnly: true }, null);
    const body = decode(CreateChannelBody, ctx.request.body);
    const projectId = targetProject(ctx.state, body.project_id);
    const own = body.owner_user_id !== undefined && body.owner_user_id !== null && body.owner_user_id === ctx.state.caller.userId;
    await gate(readModels, ctx.state.caller, own ? OWN_CHANNEL : WRITE, projectId);
    const { channelId, generatedSecret } = await addChannel(channelDeps, requesterOf(deps, ctx.state), projectId, body);
    ctx.status = 201;
    ctx.body = { channel: await freshChannel(channelId), ...(generatedSecret ? { signing_secret: generatedSecret } : {}) };
  });

  router.patch('/notification-channels/:channelId', async (ctx) => {
    const { caller } = ctx.state;
    let channel: ChannelDocument;
    let mine = false;
    try {
      channel = await gatedChannel(ctx.state, ctx.params['channelId'], WRITE);
    } catch (error) {
      // Below MANAGER, a member may still change a channel of their own.
      const own = await ownChannel(ctx.state, ctx.params['channelId']);
      if (!own) throw error;
      [channel, mine] = [own, true];
    }
    const body = decode(UpdateChannelBody, ctx.request.body);
    // Their own channel a member may change, but not give away: that takes a manager.
    if (mine && body.owner_user_id !== undefined && body.owner_user_id !== caller.userId) await gate(readModels, caller, WRITE, channel.project_id);
    await changeChannel(channelDeps, requesterOf(deps, ctx.state), channel, body);
    ctx.body = { channel: await freshChannel(channel.id) };
  });

  router.delete('/notification-channels/:channelId', async (ctx) => {
    const channel = await gatedChannel(ctx.state, ctx.params['channelId'], DESTROY);
    await settled(deps, await deleteChannel(commands, readModels, channel.id, channel.project_id, actorOf(ctx.state)), ctx.state);
    ctx.status = 204;
  });

  router.post('/notification-channels/:channelId/test', async (ctx) => {
    const channel = await gatedChannel(ctx.state, ctx.params['channelId'], WRITE);
    ctx.body = { ok: true, ...(await sendTestMessage(channelDeps, channel)) };
  });

  router.get('/notification-groups', async (ctx) => {
    const query = decode(ProjectScopeQuery, queryFields(ctx.query, ProjectScopeQuery), 'query');
    const projectId = targetProject(ctx.state, query.project_id);
    await gate(readModels, ctx.state.caller, READ, projectId);
    const monitors = await listMonitors(readModels, projectId);
    const groups = await readModels.find<GroupDocument>('notification_groups', { project_id: projectId }, { sort: [['created_at', 1]] });
    ctx.body = await Promise.all(groups.map((s) => groupItem(s.doc, monitors)));
  });

  router.get('/notification-groups/:groupId', async (ctx) => {
    const group = await gatedGroup(ctx.state, ctx.params['groupId'], READ);
    ctx.body = { group: { ...(await groupItem(group, await listMonitors(readModels, group.project_id))), channels: await groupChannels(group) } };
  });

  router.get('/notification-groups/:groupId/channels', async (ctx) => {
    ctx.body = await groupChannels(await gatedGroup(ctx.state, ctx.params['groupId'], READ));
  });

  const freshGroup = async (id: string) => {
    const group = (await readModels.get<GroupDocument>('notification_groups', id))?.doc;
    if (!group) throw new HttpError(404, 'notification group not found');
    return { ...(await groupItem(group, await listMonitors(readModels, group.project_id))), channels: await groupChannels(group) };
  };

  router.post('/notification-groups', async (ctx) => {
    await gate(readModels, ctx.state.caller, { scope: 'manage_notifications', accountKeyOnly: true }, null);
    const body = decode(CreateGroupBody, ctx.request.body);
    const projectId = targetProject(ctx.state, body.project_id);
    await gate(readModels, ctx.state.caller, WRITE, projectId);
    const { groupId, position } = await createGroup(
      commands,
      { project_id: projectId, settings: { name: body.name, description: body.description ?? '', is_default: body.is_default ?? false } },
      actorOf(ctx.state),
    );
    await settled(deps, position, ctx.state);
    ctx.status = 201;
    ctx.body = { group: await freshGroup(groupId) };
  });

  router.patch('/notification-groups/:groupId', async (ctx) => {
    const group = await gatedGroup(ctx.state, ctx.params['groupId'], WRITE);
    const body = decode(UpdateGroupBody, ctx.request.body);
    const outcome = await updateGroup(commands, group.id, body, actorOf(ctx.state));
    await settled(deps, outcome.position, ctx.state);
    ctx.body = { group: await freshGroup(group.id) };
  });

  router.delete('/notification-groups/:groupId', async (ctx) => {
    const group = await gatedGroup(ctx.state, ctx.params['groupId'], DESTROY);
    await settled(deps, await deleteGroup(commands, readModels, group.id, group.project_id, actorOf(ctx.state)), ctx.state);
    ctx.status = 204;
  });

  /**
   * The group's own project aside, a channel in a project the caller is not a member of answers
   * exactly as one that does not exist: "belongs to another project" would tell a stranger that
   * the id is real. Members of both projects still get that (more useful) answer.
   */
  const assertChannelVisible = async (state: VigilState, channelId: string, groupProjectId: string) => {
    const channel = await readModels.get<ChannelDocument>('notification_channels', channelId);
    if (!channel || channel.doc.project_id === groupProjectId) return;
    const { caller } = state;
    const member = canReach(caller, channel.doc.project_id) && (await roleOf(readModels, channel.doc.project_id, caller.userId)) !== null;
    if (!member) throw new HttpError(404, 'notification channel not found');
  };

  router.post('/notification-groups/:groupId/channels', async (ctx) => {
    const group = await gatedGroup(ctx.state, ctx.params['groupId'], WRITE);
    const body = decode(AttachChannelBody, ctx.request.body);
    await assertChannelVisible(ctx.state, body.channel_id, group.project_id);
    const outcome = await attachChannel(commands, group.id, body.channel_id, actorOf(ctx.state));
    await settled(deps, outcome.position, ctx.state);
    ctx.status = 204;
  });

  router.delete('/notification-groups/:groupId/channels/:channelId', async (ctx) => {
    const group = await gatedGroup(ctx.state, ctx.params['groupId'], WRITE);
    const outcome = await detachChannel(commands, group.id, pathId(ctx.params['channelId'], 'notification channel'), actorOf(ctx.state));
    await settled(deps, outcome.position, ctx.state);
    ctx.status = 204;
  });
}
