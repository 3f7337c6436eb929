import { expect } from 'chai';
import { type GroupEvent, type GroupSettings, groupDecider, groupStream } from '../../../src/domain/notifications/group.js';
import { deciderSpec } from '../../support/decider.js';

const { given } = deciderSpec(groupDecider);
const T0 = '2026-11-21T10:00:00.000Z';
const T1 = '2026-11-21T10:05:00.000Z';
const ids = { group_id: 'g-1', project_id: 'p-1' };
const settings: GroupSettings = { name: 'On call', description: 'Pages the night shift', is_default: false };
const create = { type: 'CreateGroup' as const, ...ids, settings, now: T1 };
const created: GroupEvent = { type: 'GroupCreated', data: { ...ids, ...settings, created_at: T0 } };
const deleted: GroupEvent = { type: 'GroupDeleted', data: { ...ids, deleted_at: T0 } };
const attached = (channel_id: string): GroupEvent => ({ type: 'GroupChannelAttached', data: { ...ids, channel_id, attached_at: T0 } });
const detached = (channel_id: string): GroupEvent => ({ type: 'GroupChannelDetached', data: { ...ids, channel_id, detached_at: T0 } });
const attach = (channel_id: string, channel_project_id: string | null = 'p-1') => ({ type: 'AttachChannel' as const, group_id: 'g-1', channel_id, channel_project_id, now: T1 });
const detach = (channel_id: string) => ({ type: 'DetachChannel' as const, group_id: 'g-1', channel_id, now: T1 });
const update = (changes: Partial<GroupSettings>) => ({ type: 'UpdateGroup' as const, group_id: 'g-1', changes, now: T1 });

describe('Notification group', () => {
  it('lives in a stream of its own', () => {
    expect(groupStream('g-1')).to.equal('group-g-1');
  });

  describe('creating', () => {
    it('records the group with its settings', () => {
      given([]).when(create).then([{ type: 'GroupCreated', data: { ...ids, ...settings, created_at: T1 } }]);
    });

    it('records nothing when the group already exists or was deleted (a retried create)', () => {
      given([created]).when(create).then([]);
      given([created, deleted]).when(create).then([]);
    });
  });

  describe('updating', () => {
    it('records the whole settings after the change', () => {
      given([created]).when(update({ is_default: true })).then([{ type: 'GroupUpdated', data: { ...ids, ...settings, is_default: true, updated_at: T1 } }]);
    });

    it('records nothing when the change leaves the settings as they are', () => {
      given([created]).when(update({ name: 'On call' })).then([]);
      const updated: GroupEvent = { type: 'GroupUpdated', data: { ...ids, ...settings, description: 'Nights', updated_at: T0 } };
      given([created, updated]).when(update({ description: 'Nights' })).then([]);
    });

    it('refuses to update a group that does not exist or was deleted', () => {
      given([]).when(update({ name: 'x' })).thenRefuses('not_found', /notification group not found/);
      given([created, deleted]).when(update({ name: 'x' })).thenRefuses('not_found', /notification group not found/);
    });
  });

  describe('channels', () => {
    it('attaches a channel of its own project', () => {
      given([created]).when(attach('c-1')).then([{ type: 'GroupChannelAttached', data: { ...ids, channel_id: 'c-1', attached_at: T1 } }]);
    });

    it('records nothing when the channel is attached already', () => {
      given([created, attached('c-1')]).when(attach('c-1')).then([]);
    });

    it('attaches a channel again after it was detached', () => {
      given([created, attached('c-1'), detached('c-1')]).when(attach('c-1')).thenEmits(['GroupChannelAttached']);
    });

    it('refuses a channel that does not exist', () => {
      given([created]).when(attach('c-9', null)).thenRefuses('not_found', /notification channel not found/);
    });

    it('refuses a channel of another project', () => {
      given([created]).when(attach('c-2', 'p-2')).thenRefuses('invalid', /the channel belongs to another project/);
    });

    it('detaches an attached channel', () => {
      given([created, attached('c-1'), attached('c-2')]).when(detach('c-1')).then([{ type: 'GroupChannelDetached', data: { ...ids, channel_id: 'c-1', detached_at: T1 } }]);
    });

    it('refuses to detach a channel that is not in the group', () => {
      given([created]).when(detach('c-1')).thenRefuses('not_found', /that channel is not in this group/);
      given([created, attached('c-1'), detached('c-1')]).when(detach('c-1')).thenRefuses('not_found', /that channel is not in this group/);
    });

    it('refuses to change the channels of a deleted group', () => {
      given([created, attached('c-1'), deleted]).when(attach('c-2')).thenRefuses('not_found', /notification group not found/);
      given([created, attached('c-1'), deleted]).when(detach('c-1')).thenRefuses('not_found', /notification group not found/);
    });
  });

  describe('deleting', () => {
    it('records the deletion', () => {
      given([created, attached('c-1')]).when({ type: 'DeleteGroup', group_id: 'g-1', now: T1 }).then([{ type: 'GroupDeleted', data: { ...ids, deleted_at: T1 } }]);
    });

    it('refuses to delete a group twice', () => {
      given([created, deleted]).when({ type: 'DeleteGroup', group_id: 'g-1', now: T1 }).thenRefuses('not_found', /notification group not found/);
    });
  });
});
