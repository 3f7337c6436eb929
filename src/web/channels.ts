import type { ChannelDependencies } from '../app/channel-changes.js';
import type { ChannelType } from '../domain/notifications/channel.js';
import { guardFor } from '../outbound/guard.js';
import { CHANNEL_TYPE_SPECS } from './codecs/channel-configs.js';
import type { ApiDependencies } from './dependencies.js';
import { decode } from './validation.js';

function configFor(type: ChannelType, raw: unknown): Record<string, unknown> {
  // The config is decoded against its type's codec; failures name the field as config.<field>.
  const decoded = decode<Record<string, unknown>>(CHANNEL_TYPE_SPECS[type].codec, raw, 'config', 'config.');
  return Object.fromEntries(Object.keys(CHANNEL_TYPE_SPECS[type].schema).filter((k) => decoded[k] !== undefined).map((k) => [k, decoded[k]]));
}

const urlFields = (type: ChannelType): string[] =>
  Object.entries(CHANNEL_TYPE_SPECS[type].schema).filter(([, field]) => field.type === 'url').map(([key]) => key);

/**
 * What the channels' use cases (src/app/channel-changes.ts) need from an edge: configs read with
 * their type's codec, and delivery only where VIGIL_PRIVATE_TARGETS lets channels deliver.
 */
export function channelDependencies(deps: ApiDependencies): ChannelDependencies {
  return {
    commands: deps.commands, readModels: deps.readModels, secrets: deps.secrets, smtp: deps.config.smtp,
    outbound: guardFor(deps.config.privateTargets, 'delivery'), readConfig: configFor, urlFields,
  };
}
