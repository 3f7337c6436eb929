import { expect } from 'chai';
import { type ChannelEvent, type ChannelSettings, channelDecider, channelStream } from '../../../src/domain/notifications/channel.js';
import { deciderSpec } from '../../support/decider.js';

const { given } = deciderSpec(channelDecider);
const T0 = '2026-11-21T10:00:00.000Z';
const T1 = '2026-11-21T10:05:00.000Z';
const ids = { channel_id: 'c-1', project_id: 'p-1' };
const settings: ChannelSettings = {
  name: 'Ops webhook', config_sealed: 'sealed:abc', config_fields: ['url'], enabled: true, is_default: false, quiet_hours: null, owner_user_id: null,
};
const create = { type: 'CreateChannel' as const, ...ids, channel_type: 'WEBHOOK' as const, settings, now: T1 };
const created: ChannelEvent = { type: 'ChannelCreated', data: { ...ids, type: 'WEBHOOK', ...settings, created_at: T0 } };
const deleted: ChannelEvent = { type: 'ChannelDeleted', data: { ...ids, deleted_at: T0 } };
const update = (changes: Partial<ChannelSettings>) => ({ type: 'UpdateChannel' as const, channel_id: 'c-1', changes, now: T1 });

describe('Notification channel', () => {
  it('lives in a stream of its own', () => {
    expect(channelStream('c-1')).to.equal('channel-c-1');
  });

  describe('creating', () => {
    it('records the channel with its type and settings, the config only as sealed', () => {
      given([]).when(create).then([{ type: 'ChannelCreated', data: { ...ids, type: 'WEBHOOK', ...settings, created_at: T1 } }]);
    });

    it('records nothing when the channel already exists (a retried create)', () => {
      given([created]).when(create).then([]);
    });

    it('records nothing for a deleted channel: its id is not reused', () => {
      given([created, deleted]).when(create).then([]);
    });
  });

  describe('updating', () => {
    it('records the whole settings after the change', () => {
      given([created]).when(update({ name: 'Ops hook', enabled: false }))
        .then([{ type: 'ChannelUpdated', data: { ...ids, ...settings, name: 'Ops hook', enabled: false, updated_at: T1 } }]);
    });

    it('records quiet hours and an owner like any other setting', () => {
      const quiet_hours = { days: [1, 2, 3, 4, 5], start: '22:00', end: '07:00', time_zone: 'Europe/Berlin' };
      given([created]).when(update({ quiet_hours, owner_user_id: 'u-1' }))
        .then([{ type: 'ChannelUpdated', data: { ...ids, ...settings, quiet_hours, owner_user_id: 'u-1', updated_at: T1 } }]);
    });

    it('records nothing when the change leaves the settings as they are', () => {
      given([created]).when(update({ name: 'Ops webhook' })).then([]);
      given([created]).when(update({})).then([]);
    });

    it('compares with the settings after the last update', () => {
      const updated: ChannelEvent = { type: 'ChannelUpdated', data: { ...ids, ...settings, name: 'Ops hook', updated_at: T0 } };
      given([created, updated]).when(update({ name: 'Ops hook' })).then([]);
      given([created, updated]).when(update({ name: 'Ops webhook' })).thenEmits(['ChannelUpdated']);
    });

    it('refuses to update a channel that does not exist or was deleted', () => {
      given([]).when(update({ name: 'x' })).thenRefuses('not_found', /notification channel not found/);
      given([created, deleted]).when(update({ name: 'x' })).thenRefuses('not_found', /notification channel not found/);
    });
  });

  describe('deleting', () => {
    it('records the deletion', () => {
      given([created]).when({ type: 'DeleteChannel', channel_id: 'c-1', now: T1 }).then([{ type: 'ChannelDeleted', data: { ...ids, deleted_at: T1 } }]);
    });

    it('refuses to delete a channel twice, or one that never existed', () => {
      given([created, deleted]).when({ type: 'DeleteChannel', channel_id: 'c-1', now: T1 }).thenRefuses('not_found', /notification channel not found/);
      given([]).when({ type: 'DeleteChannel', channel_id: 'c-1', now: T1 }).thenRefuses('not_found', /notification channel not found/);
    });
  });
});
