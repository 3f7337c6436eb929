import * as t from 'io-ts';
import { ROLES } from '../domain/access/roles.js';
import { PROVISIONED_TYPES } from '../domain/projects/auto-provisioning.js';
import { MONITOR_TYPES } from '../domain/monitors/schedule.js';
import { NullableString, nullable, oneOf } from './fields.js';

const Role = oneOf(ROLES, 'Role');

const AutoProvisioning = t.type({
  enabled: t.boolean,
  max_per_hour: t.number,
  defaults: t.type({ type: oneOf(PROVISIONED_TYPES, 'ProvisionedType'), schedule: t.string, timezone: t.string, grace_period_seconds: t.number }),
});

export const projectEventCodecs = {
  ProjectCreated: t.type({ project_id: t.string, name: t.string, description: t.string, owner_id: t.string, ping_key: t.string, created_at: t.string }),
  ProjectUpdated: t.type({ project_id: t.string, name: t.string, description: t.string, updated_at: t.string }),
  ProjectMemberAdded: t.type({ project_id: t.string, member_id: t.string, user_id: t.string, role: Role, joined_at: t.string }),
  ProjectMemberRoleChanged: t.type({ project_id: t.string, user_id: t.string, role: Role, changed_at: t.string }),
  ProjectMemberRemoved: t.type({ project_id: t.string, user_id: t.string, removed_at: t.string }),
  ProjectPingKeyRotated: t.type({ project_id: t.string, ping_key: t.string, rotated_at: t.string }),
  ProjectBadgeKeyIssued: t.type({ project_id: t.string, badge_key: t.string, issued_at: t.string }),
  ProjectDeleted: t.type({ project_id: t.string, deleted_at: t.string }),
  ProjectMonitorRemoved: t.type({
    project_id: t.string,
    monitor_id: t.string,
    name: t.string,
    slug: t.string,
    monitor_type: nullable(oneOf(MONITOR_TYPES, 'MonitorType')),
    monitor_created_at: NullableString,
    removed_at: t.string,
  }),
  ProjectMonitorStreamsDeleted: t.type({ project_id: t.string, monitor_id: t.string, deleted_at: t.string }),
  ProjectAutoProvisioningConfigured: t.type({ project_id: t.string, auto_provisioning: AutoProvisioning, configured_at: t.string }),
  MonitorAutoProvisioned: t.type({ project_id: t.string, monitor_id: t.string, slug: t.string, provisioned_at: t.string, request_ip: NullableString, request_ua: NullableString }),
};
