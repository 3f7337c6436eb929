import { type ProjectEvent, projectDecider } from '../../../src/domain/projects/project.js';
import { deciderSpec } from '../../support/decider.js';

const { given } = deciderSpec(projectDecider);
const now = '2026-11-21T10:00:00.000Z';
const project_id = 'p-1';
const created: ProjectEvent[] = [
  { type: 'ProjectCreated', data: { project_id, name: 'Billing', description: '', owner_id: 'u-owner', ping_key: 'pk1', created_at: now } },
  { type: 'ProjectMemberAdded', data: { project_id, member_id: 'm-owner', user_id: 'u-owner', role: 'OWNER', joined_at: now } },
  { type: 'ProjectBadgeKeyIssued', data: { project_id, badge_key: 'bk1', issued_at: now } },
];
const withMember: ProjectEvent[] = [
  ...created,
  { type: 'ProjectMemberAdded', data: { project_id, member_id: 'm-2', user_id: 'u-2', role: 'MEMBER', joined_at: now } },
];
const removed: ProjectEvent = { type: 'ProjectMonitorRemoved', data: { project_id, monitor_id: 'mon-1', name: 'Backup', slug: 'backup', monitor_type: 'JOB_BASIC', monitor_created_at: now, removed_at: now } };
const deleted: ProjectEvent[] = [...created, { type: 'ProjectDeleted', data: { project_id, deleted_at: now } }];

describe('Project', () => {
  describe('when absent', () => {
    it('is created with its creator as the OWNER member and a badge key of its own', () =>
      given([])
        .when({ type: 'CreateProject', project_id, name: 'Billing', description: '', owner_id: 'u-owner', owner_member_id: 'm-owner', ping_key: 'pk1', badge_key: 'bk1', now })
        .then(created));

    it('refuses every other command as not found', () =>
      given([]).when({ type: 'UpdateProject', project_id, name: 'x', now }).thenRefuses('not_found', /project not found/));
  });

  describe('when active', () => {
    it('ignores a repeated create (a retried request)', () =>
      given(created)
        .when({ type: 'CreateProject', project_id, name: 'Billing', description: '', owner_id: 'u-owner', owner_member_id: 'm-owner', ping_key: 'pk1', badge_key: 'bk1', now })
        .then([]));

    it('records an update with the full new name and description', () =>
      given(created)
        .when({ type: 'UpdateProject', project_id, description: 'Invoices', now })
        .then([{ type: 'ProjectUpdated', data: { project_id, name: 'Billing', description: 'Invoices', updated_at: now } }]));

    it('records nothing for an update that changes nothing', () =>
      given(created).when({ type: 'UpdateProject', project_id, name: 'Billing', now }).then([]));

    it('adds a member', () =>
      given(created)
        .when({ type: 'AddMember', project_id, member_id: 'm-2', user_id: 'u-2', role: 'MEMBER', now })
        .then([{ type: 'ProjectMemberAdded', data: { project_id, member_id: 'm-2', user_id: 'u-2', role: 'MEMBER', joined_at: now } }]));

    it('refuses to add a user who is already a member', () =>
      given(withMember)
        .when({ type: 'AddMember', project_id, member_id: 'm-3', user_id: 'u-2', role: 'READONLY', now })
        .thenRefuses('invalid', /already a member/));

    it("changes a member's role", () =>
      given(withMember)
        .when({ type: 'ChangeMemberRole', project_id, user_id: 'u-2', role: 'MANAGER', now })
        .then([{ type: 'ProjectMemberRoleChanged', data: { project_id, user_id: 'u-2', role: 'MANAGER', changed_at: now } }]));

    it("refuses to change the owner's role or to remove the owner", () => {
      given(created).when({ type: 'ChangeMemberRole', project_id, user_id: 'u-owner', role: 'MEMBER', now }).thenRefuses('invalid', /owner/);
      given(created).when({ type: 'RemoveMember', project_id, user_id: 'u-owner', now }).thenRefuses('invalid', /owner cannot be removed/);
    });

    it('removes a member, and refuses to remove a stranger', () => {
      given(withMember)
        .when({ type: 'RemoveMember', project_id, user_id: 'u-2', now })
        .then([{ type: 'ProjectMemberRemoved', data: { project_id, user_id: 'u-2', removed_at: now } }]);
      given(created).when({ type: 'RemoveMember', project_id, user_id: 'u-2', now }).thenRefuses('not_found', /member not found/);
    });

    it('rotates the ping key', () =>
      given(created)
        .when({ type: 'RotatePingKey', project_id, ping_key: 'pk2', now })
        .then([{ type: 'ProjectPingKeyRotated', data: { project_id, ping_key: 'pk2', rotated_at: now } }]));

    it('issues a new badge key, for a project that had none or in place of the old one', () => {
      const older = created.filter((e) => e.type !== 'ProjectBadgeKeyIssued');
      for (const past of [older, created]) {
        given(past)
          .when({ type: 'IssueBadgeKey', project_id, badge_key: 'bk2', now })
          .then([{ type: 'ProjectBadgeKeyIssued', data: { project_id, badge_key: 'bk2', issued_at: now } }]);
      }
      given(deleted).when({ type: 'IssueBadgeKey', project_id, badge_key: 'bk2', now }).thenRefuses('not_found', /project not found/);
    });

    it('is deleted', () =>
      given(created).when({ type: 'DeleteProject', project_id, now }).then([{ type: 'ProjectDeleted', data: { project_id, deleted_at: now } }]));
  });

  describe("recording a monitor's deletion", () => {
    it('records its removal, with the name and slug it had, once however often a resumed deletion asks', () => {
      given(created)
        .when({ type: 'RecordMonitorRemoval', project_id, monitor_id: 'mon-1', name: 'Backup', slug: 'backup', monitor_type: 'JOB_BASIC', monitor_created_at: now, now })
        .then([removed]);
      given([...created, removed]).when({ type: 'RecordMonitorRemoval', project_id, monitor_id: 'mon-1', name: 'Backup', slug: 'backup', monitor_type: 'JOB_BASIC', monitor_created_at: now, now }).then([]);
    });

    it('records that its streams are gone once, which finishes the deletion', () => {
      given([...created, removed])
        .when({ type: 'RecordMonitorStreamsDeletion', project_id, monitor_id: 'mon-1', now })
        .then([{ type: 'ProjectMonitorStreamsDeleted', data: { project_id, monitor_id: 'mon-1', deleted_at: now } }]);
      given([...created, removed, { type: 'ProjectMonitorStreamsDeleted', data: { project_id, monitor_id: 'mon-1', deleted_at: now } }])
        .when({ type: 'RecordMonitorStreamsDeletion', project_id, monitor_id: 'mon-1', now })
        .then([]);
    });

    it('does not take a removal after its streams are gone for a new one', () =>
      given([...created, removed, { type: 'ProjectMonitorStreamsDeleted', data: { project_id, monitor_id: 'mon-1', deleted_at: now } }])
        .when({ type: 'RecordMonitorRemoval', project_id, monitor_id: 'mon-1', name: 'Backup', slug: 'backup', monitor_type: 'JOB_BASIC', monitor_created_at: now, now })
        .then([]));
  });

  describe('when deleted', () => {
    it('refuses everything as not found, including a second delete', () => {
      given(deleted).when({ type: 'DeleteProject', project_id, now }).thenRefuses('not_found', /project not found/);
      given(deleted).when({ type: 'AddMember', project_id, member_id: 'm', user_id: 'u-9', role: 'MEMBER', now }).thenRefuses('not_found', /project not found/);
    });

    it('still records the steps of a monitor deletion under way when it was deleted', () =>
      given([...deleted, removed])
        .when({ type: 'RecordMonitorStreamsDeletion', project_id, monitor_id: 'mon-1', now })
        .then([{ type: 'ProjectMonitorStreamsDeleted', data: { project_id, monitor_id: 'mon-1', deleted_at: now } }]));

    it('cannot be created again under the same id', () =>
      given(deleted)
        .when({ type: 'CreateProject', project_id, name: 'Again', description: '', owner_id: 'u-owner', owner_member_id: 'm', ping_key: 'pk', badge_key: 'bk', now })
        .then([]));
  });
});
