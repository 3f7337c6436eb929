import type { ChannelDocument } from '../../projections/notification-channels.js';
import type { ChannelSettings, ChannelType } from '../domain/notifications/channel.js';
import { testMessage } from '../notifications/message.js';
import { DeliveryError, type SmtpSettings, deliver } from '../notifications/senders.js';
import type { OutboundGuard } from '../outbound/guard.js';
import { roleOf } from '../queries/identity.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';
import { createChannel, newWebhookSecret, sealConfig, updateChannel } from './notifications.js';
import { badInput } from './refusal.js';
import type { Requester, UseCaseDependencies } from './requester.js';
import type { SecretBox } from './secret-box.js';

export const WRITE = { scope: 'manage_notifications', accountKeyOnly: true, minimumRole: 'MANAGER' } as const;
export const DESTROY = { scope: 'destroy', accountKeyOnly: true, minimumRole: 'OWNER' } as const;

/**
 * How a channel's config is read and checked: its type's codec (the edge's: a failure names the
 * field as config.<field>), which of its fields are URLs, and where this server may deliver
 * (VIGIL_PRIVATE_TARGETS).
 */
export interface ChannelConfigRules {
  readConfig: (type: ChannelType, raw: unknown) => Record<string, unknown>;
  urlFields: (type: ChannelType) => readonly string[];
  outbound: OutboundGuard;
}

/** What the channels' use cases read, append, seal and send through. */
export interface ChannelDependencies extends UseCaseDependencies, ChannelConfigRules {
  /** Seals channel configs before they enter any event. */
  secrets: SecretBox;
  /** For email channels (and their test messages); none: no email channel can be made. */
  smtp: SmtpSettings | null;
}

/** A channel asked for (`POST /v1/notification-channels`, the console's channel form). */
export interface NewChannel {
  type: ChannelType;
  name: string;
  config: unknown;
  enabled?: boolean | undefined;
  is_default?: boolean | undefined;
  quiet_hours?: ChannelSettings['quiet_hours'] | undefined;
  owner_user_id?: string | null | undefined;
}

/** A change of a channel: what is named changes (its type never does). */
export type ChannelChange = { [K in keyof NewChannel]?: NewChannel[K] | undefined };

/**
 * A channel URL whose host is a private address, literally (in any spelling) or as a localhost
 * name, is refused when it is written or tested, not only when a page fails to reach it. Names
 * that resolve to private addresses can only be known, and are refused, at delivery.
 */
function assertDeliverable(deps: ChannelConfigRules, type: ChannelType, config: Record<string, unknown>): void {
  for (const key of deps.urlFields(type)) {
    const value = config[key];
    if (typeof value !== 'string') continue;
    const refused = deps.outbound.refusalOfUrl(value);
    if (refused) throw badInput(`config.${key} must not point at a private address (${refused.target}): this server does not deliver to private addresses`);
  }
}

/**
 * A new channel's config, checked as the API checks it (its type's codec, no private address);
 * a webhook without a signing secret gets one, returned to be shown this once.
 */
export function newChannelConfig(deps: ChannelConfigRules, type: ChannelType, raw: unknown): { config: Record<string, unknown>; generatedSecret: string | null } {
  const config = deps.readConfig(type, raw);
  assertDeliverable(deps, type, config);
  const generatedSecret = type === 'WEBHOOK' && config['secret'] === undefined ? newWebhookSecret() : null;
  if (generatedSecret) config['secret'] = generatedSecret;
  return { config, generatedSecret };
}

/** Why a channel of this type cannot be made on this server, or null when it can. */
export function channelTypeUnavailable(deps: Pick<ChannelDependencies, 'smtp'>, type: ChannelType): string | null {
  return type === 'EMAIL' && deps.smtp === null
    ? 'email is sent through an SMTP server and this Vigil has none (its operator sets one with VIGIL_SMTP_HOST)'
    : null;
}

/** A channel's owner must be a member of its project: 400 naming owner_user_id otherwise. */
async function assertOwnerIsMember(readModels: ReadModelStore, projectId: string, ownerUserId: string | null | undefined): Promise<void> {
  if (ownerUserId === null || ownerUserId === undefined) return;
  if ((await roleOf(readModels, projectId, ownerUserId)) === null) throw badInput('owner_user_id: not a member of this project');
}

/**
 * What a caller must be to write a channel: a manager, or, for their own channel (one whose
 * owner is and stays themselves), any member who may manage notifications.
 */
export const OWN_CHANNEL = { scope: 'manage_notifications', accountKeyOnly: true, minimumRole: 'MEMBER' } as const;

/** Creates a channel from a create request on a project the caller has passed the WRITE gate for. */
export async function addChannel(deps: ChannelDependencies, requester: Requester, projectId: string, body: NewChannel) {
  const { config, generatedSecret } = newChannelConfig(deps, body.type, body.config);
  // After the config's own checks, so a bad field is named first; refused here, not on the first page at 3 a.m.
  const unavailable = channelTypeUnavailable(deps, body.type);
  if (unavailable) throw badInput(`type ${body.type} is not available on this server: ${unavailable}`);
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
    requester.actor,
  );
  await requester.settled(position);
  return { channelId, generatedSecret };
}

/** Changes a channel as `PATCH /v1/notification-channels/<id>` does; the caller has passed the WRITE gate. */
export async function changeChannel(deps: ChannelDependencies, requester: Requester, channel: ChannelDocument, body: ChannelChange): Promise<void> {
  const { commands, secrets } = deps;
  if (body.type !== undefined && body.type !== channel.type) throw badInput('type cannot be changed; create a new channel instead');
  const config = body.config !== undefined ? deps.readConfig(channel.type, body.config) : null;
  if (config) assertDeliverable(deps, channel.type, config);
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
  const outcome = await updateChannel(commands, channel.id, changes, requester.actor);
  await requester.settled(outcome.position);
}

export interface TestOutcome {
  delivered: boolean;
  error: string | null;
  tested_at: string;
}

/** Sends the channel a test message now, as a page would go, and says whether it arrived. */
export async function sendTestMessage(deps: ChannelDependencies, channel: ChannelDocument): Promise<TestOutcome> {
  const { commands, secrets } = deps;
  // Made before the policy refused it (or under another one): say so rather than try.
  const config = secrets.openConfig(channel.config_sealed);
  assertDeliverable(deps, channel.type, config);
  const now = commands.clock().toISOString();
  const message = testMessage({ channelId: channel.id, channelName: channel.name, projectId: channel.project_id, occurredAt: now });
  try {
    await deliver(channel.type, config, message, {
      timeoutMs: 10_000,
      smtp: deps.smtp,
      outbound: deps.outbound,
      now: () => commands.clock(),
    });
    return { delivered: true, error: null, tested_at: now };
  } catch (error) {
    return { delivered: false, error: error instanceof DeliveryError ? error.message : 'delivery failed', tested_at: now };
  }
}
