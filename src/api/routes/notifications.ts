import type { Router } from '@koa/router';
import * as t from 'io-ts';
import { attachChannel, createChannel, createGroup, deleteChannel, deleteGroup, detachChannel, newWebhookSecret, sealConfig, updateChannel, updateGroup } from '../../app/notifications.js';
import type { ChannelType } from '../../domain/notifications/channel.js';
import { testMessage } from '../../notifications/message.js';
import { DeliveryError, deliver } from '../../notifications/senders.js';
import { type OutboundGuard, guardFor } from '../../outbound/guard.js';
import { getProject } from '../../queries/projects.js';
import { getUser } from '../../queries/identity.js';
import { listMonitors } from '../../queries/monitors.js';
import type { ReadModelStore } from '../../readstore/read-model-store.js';
import type { ChannelDocument } from '../../../projections/notification-channels.js';
import type { GroupDocument } from '../../../projections/notification-groups.js';
import { actorOf } from '../../web/actor.js';
import { CHANNEL_TYPE_SPECS } from '../../web/codecs/channel-configs.js';
import { AttachChannelBody, CreateChannelBody, CreateGroupBody, UpdateChannelBody, UpdateGroupBody } from '../../web/codecs/notifications.js';
import { type ApiDependencies, settled } from '../../web/dependencies.js';
import { HttpError, badRequest } from '../../web/errors.js';
import { gate } from '../../app/gate.js';
import { canReach } from '../../domain/access/authorize.js';
import { roleOf } from '../../queries/identity.js';
import { gatedDocument, targetProject } from '../../web/monitor-access.js';
import type { Requirement } from '../../domain/access/authorize.js';
import { userBody } from '../../web/representations/projects.js';
import type { VigilState } from '../../web/state.js';
import { ProjectScopeQuery, queryFields } from '../../web/codecs/queries.js';
import { decode, pathId } from '../../web/validation.js';

const READ = { scope: 'read' } as const;
export const WRITE = { scope: 'manage_notifications', accountKeyOnly: true, minimumRole: 'MANAGER' } as const;
export const DESTROY = { scope: 'destroy', accountKeyOnly: true, minimumRole: 'OWNER' } as const;

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

function configFor(type: ChannelType, raw: unknown): Record<string, unknown> {
  // The config is decoded against its type's codec; failures name the field as config.<field>.
  const decoded = decode(CHANNEL_TYPE_SPECS[type].codec, raw, 'config', 'config.');
  return Object.fromEntries(Object.keys(CHANNEL_TYPE_SPECS[type].schema).filter((k) => decoded[k] !== undefined).map((k) => [k, decoded[k]]));
}

/**
 * A channel URL whose host is a private address, literally (in any spelling) or as a localhost
 * name, is refused when it is written or tested, not only when a page fails to reach it. Names
 * that resolve to private addresses can only be known, and are refused, at delivery.
 */
function assertDeliverable(type: ChannelType, config: Record<string, unknown>, outbound: OutboundGuard): void {
  for (const [key, field] of Object.entries(CHANNEL_TYPE_SPECS[type].schema)) {
    const value = config[key];
    if (field.type !== 'url' || typeof value !== 'string') continue;
    const refused = outbound.refusalOfUrl(value);
    if (refused) throw badRequest(`config.${key} must not point at a private address (${refused.target}): this server does not deliver to private addresses`);
  }
}

/** Where channels may deliver, under VIGIL_PRIVATE_TARGETS. */
export const deliveryGuard = (deps: ApiDependencies): OutboundGuard => guardFor(deps.config.privateTargets, 'delivery');

/**
 * A new channel's config, checked as the API checks it (its type's codec, no private address);
 * a webhook without a signing secret gets one, returned to be shown this once.
 */
export function newChannelConfig(type: ChannelType, raw: unknown, outbound: OutboundGuard): { config: Record<string, unknown>; generatedSecret: string | null } {
  const config = configFor(type, raw);
  assertDeliverable(type, config, outbound);
  const generatedSecret = type === 'WEBHOOK' && config['secret'] === undefined ? newWebhookSecret() : null;
  if (generatedSecret) config['secret'] = generatedSecret;
  return { config, generatedSecret };
}

/** Why a channel of this type cannot be made on this server, or null when it can. */
export function channelTypeUnavailable(deps: ApiDependencies, type: ChannelType): string | null {
  return type === 'EMAIL' && deps.config.smtp === null
    ? 'email is sent through an SMTP server and this Vigil has none (its operator sets one with VIGIL_SMTP_HOST)'
    : null;
}

/** A channel's owner must be a member of its project: 400 naming owner_user_id otherwise. */
async function assertOwnerIsMember(readModels: ReadModelStore, projectId: string, ownerUserId: string | null | undefined): Promise<void> {
  if (ownerUserId === null || ownerUserId === undefined) return;
  if ((await roleOf(readModels, projectId, ownerUserId)) === null) throw badRequest('owner_user_id: not a member of this project');
}

/**
 * What a caller must be to write a channel: a manager, or, for their own channel (one whose
 * owner is and stays themselves), any member who may manage notifications.
 */
export const OWN_CHANNEL = { scope: 'manage_notifications', accountKeyOnly: true, minimumRole: 'MEMBER' } as const;

/** Creates a channel from a create request on a project the caller has passed the WRITE gate for. */
export async function addChannel(deps: ApiDependencies, state: VigilState, projectId: string, body: t.TypeOf<typeof CreateChannelBody>, outbound: OutboundGuard) {
  const { config, generatedSecret } = newChannelConfig(body.type, body.config, outbound);
  // After the config's own checks, so a bad field is named first; refused here, not on the first page at 3 a.m.
  const unavailable = channelTypeUnavailable(deps, body.type);
  if (unavailable) throw badRequest(`type ${body.type} is not available on this server: ${unavailable}`);
  await assertOwnerIsMember(deps.readModels, projectId, body.owner_user_id);
  const { channelId, position } = await createChannel(
    deps.commands,
    {
      project_id: projectId,
      channel_type: body.type,
      settings: {
        name: body.name, enabled: body.enabled ?? true, is_default: body.is_default ?? false, ...sealConfig(deps.secrets, config),
        quiet_hours: body.quiet_hours ?? null, owner_user_id: body.owner_user_id ?? null,
      },
    },
    actorOf(state),
  );
  await settled(deps, position, state);
  return { channelId, generatedSecret };
}

/** Changes a channel as `PATCH /v1/notification-channels/<id>` does; the caller has passed the WRITE gate. */
export async function changeChannel(deps: ApiDependencies, state: VigilState, channel: ChannelDocument, body: t.TypeOf<typeof UpdateChannelBody>, outbound: OutboundGuard): Promise<void> {
  const { commands, secrets } = deps;
  if (body.type !== undefined && body.type !== channel.type) throw badRequest('type cannot be changed; create a new channel instead');
  const config = body.config !== undefined ? configFor(channel.type, body.config) : null;
  if (config) assertDeliverable(channel.type, config, outbound);
  // A webhook's signing secret is shown only when made: a new config that names none keeps the
  // one its receiver verifies with, rather than sending unsigned.
  if (config && channel.type === 'WEBHOOK' && config['secret'] === undefined) config['secret'] = secrets.openConfig(channel.config_sealed)['secret'];
  await assertOwnerIsMember(deps.readModels, channel.project_id, body.owner_user_id);
  const changes = {
    ...(body.quiet_hours !== undefined ? { quiet_hours: body.quiet_hours } : {}),
    ...(body.owner_user_id !== undefined ? { owner_user_id: body.owner_user_id } : {}),
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
    ...(body.is_default !== undefined ? { is_default: body.is_default } : {}),
    ...(config ? sealConfig(secrets, config) : {}),
  };
  const outcome = await updateChannel(commands, channel.id, changes, actorOf(state));
  await settled(deps, outcome.position, state);
}

export interface TestOutcome {
  delivered: boolean;
  error: string | null;
  tested_at: string;
}

/** Sends the channel a test message now, as a page would go, and says whether it arrived. */
export async function sendTestMessage(deps: ApiDependencies, channel: ChannelDocument, outbound: OutboundGuard): Promise<TestOutcome> {
  const { commands, secrets } = deps;
  // Made before the policy refused it (or under another one): say so rather than try.
  const config = secrets.openConfig(channel.config_sealed);
  assertDeliverable(channel.type, config, outbound);
  const now = commands.clock().toISOString();
  const message = testMessage({ channelId: channel.id, channelName: channel.name, projectId: channel.project_id, occurredAt: now });
  try {
    await deliver(channel.type, config, message, {
      timeoutMs: 10_000,
      smtp: deps.config.smtp,
      outbound,
      now: () => commands.clock(),
    });
    return { delivered: true, error: null, tested_at: now };
  } catch (error) {
    return { delivered: false, error: error instanceof DeliveryError ? error.message : 'delivery failed', tested_at: now };
  }
}

export function notificationRoutes(router: Router<VigilState>, deps: ApiDependencies): void {
  const { readModels, commands } = deps;
  const outbound = deliveryGuard(deps);

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
    const { channelId, generatedSecret } = await addChannel(deps, ctx.state, projectId, body, outbound);
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
    await changeChannel(deps, ctx.state, channel, body, outbound);
    ctx.body = { channel: await freshChannel(channel.id) };
  });

  router.delete('/notification-channels/:channelId', async (ctx) => {
    const channel = await gatedChannel(ctx.state, ctx.params['channelId'], DESTROY);
    await settled(deps, await deleteChannel(commands, readModels, channel.id, channel.project_id, actorOf(ctx.state)), ctx.state);
    ctx.status = 204;
  });

  router.post('/notification-channels/:channelId/test', async (ctx) => {
    const channel = await gatedChannel(ctx.state, ctx.params['channelId'], WRITE);
    ctx.body = { ok: true, ...(await sendTestMessage(deps, channel, outbound)) };
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
