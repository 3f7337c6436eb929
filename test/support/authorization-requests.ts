import { randomUUID } from 'node:crypto';
import type { Aim, Caller, MatrixFixtures, ProjectFixtures, World } from './authorization-world.js';
import type { Response } from './test-vigil.js';

/** The ids a request names: the aimed-at project's, plus `fresh`, whatever the case built for itself. */
export type Ids = ProjectFixtures & { fresh: string };

export interface RequestLine {
  method: string;
  path: string;
  body?: unknown;
}

export interface MatrixCase {
  fixtures: MatrixFixtures;
  world: World;
  caller: Caller;
  aim: Aim;
  project: ProjectFixtures;
}

/** What a case built for itself: a fresh thing to use up, or a whole project with the key the caller has there. */
export interface Prepared {
  fresh?: string;
  project?: { projectId: string; key: string };
  /** Runs whatever the outcome, so one case leaves nothing that changes the next. */
  cleanup?: () => Promise<void>;
}

export interface OperationRequest {
  /** For operations that use something up (deletes, revokes, acknowledgements): a fresh one per case. */
  prepare?: (c: MatrixCase) => Promise<Prepared>;
  /** A valid request, so that once the gates let it through it succeeds. */
  line: (ids: Ids, sinkUrl: string) => RequestLine;
  /** Undoes what a success leaves that would change later cases. */
  after?: (c: MatrixCase, response: Response) => Promise<void>;
}

const get = (path: string): RequestLine => ({ method: 'GET', path });
const post = (path: string, body?: unknown): RequestLine => ({ method: 'POST', path, ...(body === undefined ? {} : { body }) });
const patch = (path: string, body: unknown): RequestLine => ({ method: 'PATCH', path, body });
const del = (path: string): RequestLine => ({ method: 'DELETE', path });

const fresh = (make: (c: MatrixCase) => Promise<string>) => async (c: MatrixCase): Promise<Prepared> => ({ fresh: await make(c) });
const disposableProject = async (c: MatrixCase): Promise<Prepared> => ({ project: await c.fixtures.disposableProject(c.world, c.caller, c.aim) });

/** A minted key counts toward its user's limit of three: revoke it once it is shown to exist. */
const revokeMinted = async (c: MatrixCase, response: Response) => {
  if (response.status === 201) await c.fixtures.revoke(c.caller.userId, response.body.api_key.id);
};

/** A key of the caller's own, revoked afterwards if the case did not. */
const ownKey = (shape: (c: MatrixCase) => { scopes: ['read'] } | { projectId: string }) => async (c: MatrixCase): Promise<Prepared> => {
  const issued = await c.fixtures.apiKey(c.caller.userId, shape(c));
  return { fresh: issued.id, cleanup: () => c.fixtures.revoke(c.caller.userId, issued.id) };
};

/** How to call each operation named in the oracle's RULES. */
export const REQUESTS: Readonly<Record<string, OperationRequest>> = {
  'GET /v1/projects': { line: () => get('/v1/projects') },
  'POST /v1/projects': { line: () => post('/v1/projects', { name: 'Made by the matrix' }) },
  'GET /v1/projects/:projectId': { line: (ids) => get(`/v1/projects/${ids.projectId}`) },
  'PATCH /v1/projects/:projectId': { line: (ids) => patch(`/v1/projects/${ids.projectId}`, { description: 'patched by the matrix' }) },
  'DELETE /v1/projects/:projectId': { prepare: disposableProject, line: (ids) => del(`/v1/projects/${ids.projectId}`) },
  'POST /v1/projects/:projectId/ping-key/rotate': { prepare: disposableProject, line: (ids) => post(`/v1/projects/${ids.projectId}/ping-key/rotate`) },
  'POST /v1/projects/:projectId/members': {
    prepare: fresh((c) => c.fixtures.user()),
    line: (ids) => post(`/v1/projects/${ids.projectId}/members`, { user_id: ids.fresh, role: 'READONLY' }),
  },
  'PATCH /v1/projects/:projectId/members/:userId': {
    line: (ids) => patch(`/v1/projects/${ids.projectId}/members/${ids.bystanderId}`, { role: 'READONLY' }),
  },
  'DELETE /v1/projects/:projectId/members/:userId': {
    prepare: fresh((c) => c.fixtures.member(c.project.projectId)),
    line: (ids) => del(`/v1/projects/${ids.projectId}/members/${ids.fresh}`),
  },
  'GET /v1/projects/:projectId/events': { line: (ids) => get(`/v1/projects/${ids.projectId}/events`) },
  'GET /v1/projects/:projectId/uptime-summary': { line: (ids) => get(`/v1/projects/${ids.projectId}/uptime-summary`) },
  'GET /v1/projects/:projectId/invitations': { line: (ids) => get(`/v1/projects/${ids.projectId}/invitations`) },
  'POST /v1/projects/:projectId/invitations': {
    line: (ids) => post(`/v1/projects/${ids.projectId}/invitations`, { email: `matrix-invited-${randomUUID()}@example.com`, role: 'READONLY' }),
    after: async (c, response) => {
      if (response.status === 201) await c.fixtures.revokeInvitation(c.project.projectId, response.body.invitation.id);
    },
  },
  'DELETE /v1/projects/:projectId/invitations/:invitationId': {
    prepare: async (c) => {
      const invitation = await c.fixtures.invitation(c.project.projectId);
      return { fresh: invitation.id, cleanup: () => c.fixtures.revokeInvitation(c.project.projectId, invitation.id) };
    },
    line: (ids) => del(`/v1/projects/${ids.projectId}/invitations/${ids.fresh}`),
  },
  'POST /v1/invitations/accept': {
    prepare: async (c) => {
      const invitation = await c.fixtures.invitation(undefined, c.caller.userId);
      return { fresh: invitation.token, cleanup: () => c.fixtures.revokeInvitation(undefined, invitation.id) };
    },
    line: (ids) => post('/v1/invitations/accept', { token: ids.fresh }),
  },

  'GET /v1/api-keys': { line: () => get('/v1/api-keys') },
  'POST /v1/api-keys (account key)': {
    line: () => post('/v1/api-keys', { name: 'minted by the matrix', expires_in_days: 1, scopes: ['manage_monitors'] }),
    after: revokeMinted,
  },
  'POST /v1/api-keys (project key)': {
    line: (ids) => post('/v1/api-keys', { name: 'minted by the matrix', expires_in_days: 1, project_id: ids.projectId }),
    after: revokeMinted,
  },
  'DELETE /v1/api-keys/:apiKeyId (own account key)': { prepare: ownKey(() => ({ scopes: ['read'] })), line: (ids) => del(`/v1/api-keys/${ids.fresh}`) },
  'DELETE /v1/api-keys/:apiKeyId (own project key)': {
    prepare: ownKey((c) => ({ projectId: c.project.projectId })),
    line: (ids) => del(`/v1/api-keys/${ids.fresh}`),
  },
  "DELETE /v1/api-keys/:apiKeyId (another user's key)": {
    prepare: async (c) => ({ fresh: c.world.strangerKeyId }),
    line: (ids) => del(`/v1/api-keys/${ids.fresh}`),
  },

  'GET /v1/monitors': { line: (ids) => get(`/v1/monitors?project_id=${ids.projectId}`) },
  'POST /v1/monitors': { line: (ids) => post('/v1/monitors', { project_id: ids.projectId, name: 'Made by the matrix', type: 'JOB_CRON', schedule: '0 4 * * *' }) },
  'GET /v1/monitors/:monitorId': { line: (ids) => get(`/v1/monitors/${ids.monitorId}`) },
  'PATCH /v1/monitors/:monitorId': { line: (ids) => patch(`/v1/monitors/${ids.monitorId}`, { description: 'patched by the matrix' }) },
  'DELETE /v1/monitors/:monitorId': { prepare: fresh((c) => c.fixtures.monitor(c.project.projectId)), line: (ids) => del(`/v1/monitors/${ids.fresh}`) },
  'POST /v1/monitors/:monitorId/pause': { line: (ids) => post(`/v1/monitors/${ids.monitorId}/pause`) },
  'POST /v1/monitors/:monitorId/resume': { line: (ids) => post(`/v1/monitors/${ids.monitorId}/resume`) },
  'GET /v1/monitors/:monitorId/incidents': { line: (ids) => get(`/v1/monitors/${ids.incidentMonitorId}/incidents`) },
  'GET /v1/monitors/:monitorId/pings': { line: (ids) => get(`/v1/monitors/${ids.monitorId}/pings`) },
  'GET /v1/monitors/:monitorId/pings/:pingId': { line: (ids) => get(`/v1/monitors/${ids.monitorId}/pings/${ids.pingId}`) },
  'GET /v1/monitors/:monitorId/schedule': { line: (ids) => get(`/v1/monitors/${ids.monitorId}/schedule`) },
  'GET /v1/monitors/:monitorId/warnings': { line: (ids) => get(`/v1/monitors/${ids.monitorId}/warnings`) },
  'GET /v1/monitors/:monitorId/events': { line: (ids) => get(`/v1/monitors/${ids.monitorId}/events`) },
  'GET /v1/monitors/:monitorId/check-results/latest': { line: (ids) => get(`/v1/monitors/${ids.uptimeMonitorId}/check-results/latest`) },
  'GET /v1/monitors/:monitorId/response-time-stats': { line: (ids) => get(`/v1/monitors/${ids.uptimeMonitorId}/response-time-stats`) },

  'GET /v1/incidents': { line: (ids) => get(`/v1/incidents?project_id=${ids.projectId}`) },
  'GET /v1/incidents/:incidentId': { line: (ids) => get(`/v1/incidents/${ids.incidentId}`) },
  'GET /v1/incidents/:incidentId/timeline': { line: (ids) => get(`/v1/incidents/${ids.incidentId}/timeline`) },
  'POST /v1/incidents/:incidentId/acknowledge': {
    prepare: fresh((c) => c.fixtures.openIncident(c.project)),
    line: (ids) => post(`/v1/incidents/${ids.fresh}/acknowledge`),
  },
  'POST /v1/incidents/:incidentId/resolve': {
    prepare: fresh((c) => c.fixtures.openIncident(c.project)),
    line: (ids) => post(`/v1/incidents/${ids.fresh}/resolve`),
  },
  'GET /v1/incidents/:incidentId/notes': { line: (ids) => get(`/v1/incidents/${ids.incidentId}/notes`) },
  'POST /v1/incidents/:incidentId/notes': {
    prepare: fresh((c) => c.fixtures.openIncident(c.project)),
    line: (ids) => post(`/v1/incidents/${ids.fresh}/notes`, { text: 'Written by the matrix' }),
  },

  'GET /v1/notification-channels/types': { line: () => get('/v1/notification-channels/types') },
  'GET /v1/notification-channels': { line: (ids) => get(`/v1/notification-channels?project_id=${ids.projectId}`) },
  'POST /v1/notification-channels': {
    line: (ids, sinkUrl) => post('/v1/notification-channels', { project_id: ids.projectId, name: 'Made by the matrix', type: 'WEBHOOK', config: { url: sinkUrl } }),
  },
  'GET /v1/notification-channels/:channelId': { line: (ids) => get(`/v1/notification-channels/${ids.channelId}`) },
  'PATCH /v1/notification-channels/:channelId': { line: (ids) => patch(`/v1/notification-channels/${ids.channelId}`, { name: 'Patched by the matrix' }) },
  'DELETE /v1/notification-channels/:channelId': {
    prepare: fresh((c) => c.fixtures.channel(c.project.projectId)),
    line: (ids) => del(`/v1/notification-channels/${ids.fresh}`),
  },
  'POST /v1/notification-channels/:channelId/test': { line: (ids) => post(`/v1/notification-channels/${ids.channelId}/test`) },
  'GET /v1/notification-groups': { line: (ids) => get(`/v1/notification-groups?project_id=${ids.projectId}`) },
  'POST /v1/notification-groups': { line: (ids) => post('/v1/notification-groups', { project_id: ids.projectId, name: 'Made by the matrix' }) },
  'GET /v1/notification-groups/:groupId': { line: (ids) => get(`/v1/notification-groups/${ids.groupId}`) },
  'PATCH /v1/notification-groups/:groupId': { line: (ids) => patch(`/v1/notification-groups/${ids.groupId}`, { description: 'patched by the matrix' }) },
  'DELETE /v1/notification-groups/:groupId': {
    prepare: fresh((c) => c.fixtures.group(c.project.projectId)),
    line: (ids) => del(`/v1/notification-groups/${ids.fresh}`),
  },
  'GET /v1/notification-groups/:groupId/channels': { line: (ids) => get(`/v1/notification-groups/${ids.groupId}/channels`) },
  'GET /v1/on-call-schedules': { line: (ids) => get(`/v1/on-call-schedules?project_id=${ids.projectId}`) },
  'POST /v1/on-call-schedules': {
    line: (ids) => post('/v1/on-call-schedules', { project_id: ids.projectId, name: 'Made by the matrix', time_zone: 'UTC', handoff_time: '09:00', rotation: 'daily', starts_on: '2026-01-05', participants: [] }),
  },
  'GET /v1/on-call-schedules/:scheduleId': { line: (ids) => get(`/v1/on-call-schedules/${ids.scheduleId}`) },
  'PATCH /v1/on-call-schedules/:scheduleId': { line: (ids) => patch(`/v1/on-call-schedules/${ids.scheduleId}`, { name: 'patched by the matrix' }) },
  'DELETE /v1/on-call-schedules/:scheduleId': {
    prepare: fresh((c) => c.fixtures.onCallSchedule(c.project.projectId)),
    line: (ids) => del(`/v1/on-call-schedules/${ids.fresh}`),
  },
  'POST /v1/notification-groups/:groupId/channels': {
    line: (ids) => post(`/v1/notification-groups/${ids.groupId}/channels`, { channel_id: ids.channelId }),
  },
  'DELETE /v1/notification-groups/:groupId/channels/:channelId': {
    prepare: fresh((c) => c.fixtures.attachedChannel(c.project)),
    line: (ids) => del(`/v1/notification-groups/${ids.groupId}/channels/${ids.fresh}`),
  },
  'GET /v1/escalation-policies': { line: (ids) => get(`/v1/escalation-policies?project_id=${ids.projectId}`) },
  'POST /v1/escalation-policies': {
    line: (ids) => post('/v1/escalation-policies', { project_id: ids.projectId, name: 'Made by the matrix', steps: [{ delay_seconds: 60, notification_group_ids: [ids.groupId] }] }),
  },
  'GET /v1/escalation-policies/:policyId': { line: (ids) => get(`/v1/escalation-policies/${ids.escalationPolicyId}`) },
  'PATCH /v1/escalation-policies/:policyId': { line: (ids) => patch(`/v1/escalation-policies/${ids.escalationPolicyId}`, { repeat: 1 }) },
  'DELETE /v1/escalation-policies/:policyId': {
    prepare: fresh((c) => c.fixtures.escalationPolicy(c.project.projectId, c.project.groupId)),
    line: (ids) => del(`/v1/escalation-policies/${ids.fresh}`),
  },

  'GET /v1/projects/:projectId/status-pages': { line: (ids) => get(`/v1/projects/${ids.projectId}/status-pages`) },
  // Status page slugs are unique across every project: each case takes a fresh one.
  'POST /v1/projects/:projectId/status-pages': { line: (ids) => post(`/v1/projects/${ids.projectId}/status-pages`, { slug: `matrix-${randomUUID()}`, title: 'Made by the matrix', monitors: [{ monitor_id: ids.monitorId }] }) },
  'GET /v1/status-pages/:statusPageId': { line: (ids) => get(`/v1/status-pages/${ids.statusPageId}`) },
  'PATCH /v1/status-pages/:statusPageId': { line: (ids) => patch(`/v1/status-pages/${ids.statusPageId}`, { description: 'patched by the matrix' }) },
  'DELETE /v1/status-pages/:statusPageId': { prepare: fresh((c) => c.fixtures.statusPage(c.project.projectId)), line: (ids) => del(`/v1/status-pages/${ids.fresh}`) },
  'GET /v1/projects/:projectId/badge-key': { line: (ids) => get(`/v1/projects/${ids.projectId}/badge-key`) },
  'POST /v1/projects/:projectId/badge-key': { line: (ids) => post(`/v1/projects/${ids.projectId}/badge-key`) },
  // Upcoming windows over one monitor, so none holds back the incidents other cases need.
  'GET /v1/projects/:projectId/maintenance-windows': { line: (ids) => get(`/v1/projects/${ids.projectId}/maintenance-windows`) },
  'POST /v1/projects/:projectId/maintenance-windows': {
    line: (ids) => post(`/v1/projects/${ids.projectId}/maintenance-windows`, { name: 'Made by the matrix', monitor_ids: [ids.monitorId], starts_at: '2027-01-01T00:00:00Z', ends_at: '2027-01-01T01:00:00Z' }),
  },
  'GET /v1/maintenance-windows/:windowId': { line: (ids) => get(`/v1/maintenance-windows/${ids.maintenanceWindowId}`) },
  'PATCH /v1/maintenance-windows/:windowId': { line: (ids) => patch(`/v1/maintenance-windows/${ids.maintenanceWindowId}`, { name: 'Patched by the matrix' }) },
  'POST /v1/maintenance-windows/:windowId/end': { prepare: fresh((c) => c.fixtures.maintenanceWindow(c.project.projectId, c.project.monitorId)), line: (ids) => post(`/v1/maintenance-windows/${ids.fresh}/end`) },
  'DELETE /v1/maintenance-windows/:windowId': { prepare: fresh((c) => c.fixtures.maintenanceWindow(c.project.projectId, c.project.monitorId)), line: (ids) => del(`/v1/maintenance-windows/${ids.fresh}`) },

  'POST /v1/tools/check-http': { line: (ids, sinkUrl) => post('/v1/tools/check-http', { url: sinkUrl, project_id: ids.projectId }) },
  'POST /v1/tools/check-ssl': { line: (ids, sinkUrl) => post('/v1/tools/check-ssl', { hostname: '127.0.0.1', port: Number(new URL(sinkUrl).port), project_id: ids.projectId }) },
  // Answered by a resolver on 127.0.0.1 that is not there (VIGIL_DNS_SERVERS), so nothing leaves the machine.
  'POST /v1/tools/check-dns': { line: (ids) => post('/v1/tools/check-dns', { hostname: 'vigil.invalid', project_id: ids.projectId }) },
};
