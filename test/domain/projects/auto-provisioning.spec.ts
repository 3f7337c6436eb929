import { AUTO_PROVISIONING_DEFAULTS } from '../../../src/domain/projects/auto-provisioning.js';
import { type ProjectCommand, type ProjectEvent, projectDecider } from '../../../src/domain/projects/project.js';
import { deciderSpec } from '../../support/decider.js';

const { given } = deciderSpec(projectDecider);
const project_id = 'p-1';
const T0 = '2026-11-21T10:00:00.000Z';
const created: ProjectEvent[] = [
  { type: 'ProjectCreated', data: { project_id, name: 'Billing', description: '', owner_id: 'u-owner', ping_key: 'pk1', created_at: T0 } },
  { type: 'ProjectMemberAdded', data: { project_id, member_id: 'm-owner', user_id: 'u-owner', role: 'OWNER', joined_at: T0 } },
];
const enabled = (max_per_hour = 2): ProjectEvent => ({
  type: 'ProjectAutoProvisioningConfigured',
  data: { project_id, auto_provisioning: { ...AUTO_PROVISIONING_DEFAULTS, enabled: true, max_per_hour }, configured_at: T0 },
});
const provision = (slug: string, monitor_id: string, now: string): ProjectCommand => ({ type: 'ProvisionMonitor', project_id, monitor_id, slug, request_ip: '127.0.0.1', request_ua: 'curl', now });
const provisioned = (slug: string, monitor_id: string, at: string): ProjectEvent => ({
  type: 'MonitorAutoProvisioned',
  data: { project_id, monitor_id, slug, provisioned_at: at, request_ip: '127.0.0.1', request_ua: 'curl' },
});

describe('Project auto-provisioning', () => {
  describe('its setting', () => {
    it('is off by default, and creates nothing on a first ping', () =>
      given(created).when(provision('backup', 'mon-1', T0)).thenRefuses('not_found', /monitor not found/));

    it('records the whole setting after a change of some of its fields', () =>
      given(created)
        .when({ type: 'ConfigureAutoProvisioning', project_id, patch: { enabled: true, defaults: { schedule: '2h' } }, now: T0 })
        .then([
          {
            type: 'ProjectAutoProvisioningConfigured',
            data: { project_id, auto_provisioning: { enabled: true, max_per_hour: 20, defaults: { ...AUTO_PROVISIONING_DEFAULTS.defaults, schedule: '2h' } }, configured_at: T0 },
          },
        ]));

    it('records nothing when nothing changes', () =>
      given([...created, enabled(20)]).when({ type: 'ConfigureAutoProvisioning', project_id, patch: { enabled: true }, now: T0 }).then([]));

    it('refuses defaults that could not create a monitor, naming the problem', () =>
      given(created)
        .when({ type: 'ConfigureAutoProvisioning', project_id, patch: { defaults: { type: 'JOB_CRON', schedule: '1d' } }, now: T0 })
        .thenRefuses('invalid', /schedule|cron/i));
  });

  describe('when on', () => {
    it('records the monitor created by a first ping, with where the ping came from', () =>
      given([...created, enabled()]).when(provision('backup', 'mon-1', T0)).then([provisioned('backup', 'mon-1', T0)]));

    it('refuses a creation over max_per_hour in the last hour, and allows it again an hour later', () => {
      const two = [...created, enabled(2), provisioned('a', 'mon-a', '2026-11-21T10:00:00.000Z'), provisioned('b', 'mon-b', '2026-11-21T10:30:00.000Z')];
      given(two).when(provision('c', 'mon-c', '2026-11-21T10:59:59.000Z')).thenRefuses('rate_limited', /at most 2 monitors per hour/);
      given(two).when(provision('c', 'mon-c', '2026-11-21T11:00:00.000Z')).then([provisioned('c', 'mon-c', '2026-11-21T11:00:00.000Z')]);
    });

    it('decides nothing for a slug whose creation is under way or done, so that it is finished rather than made twice', () =>
      given([...created, enabled(1), provisioned('backup', 'mon-1', T0)]).when(provision('backup', 'mon-2', T0)).then([]));

    it('creates the slug anew once the monitor it created is deleted', () =>
      given([
        ...created, enabled(5), provisioned('backup', 'mon-1', T0),
        { type: 'ProjectMonitorRemoved', data: { project_id, monitor_id: 'mon-1', name: 'backup', slug: 'backup', monitor_type: 'JOB_BASIC', monitor_created_at: T0, removed_at: T0 } },
      ])
        .when(provision('backup', 'mon-2', T0))
        .then([provisioned('backup', 'mon-2', T0)]));
  });
});
