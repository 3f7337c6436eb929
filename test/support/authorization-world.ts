import { randomUUID } from 'node:crypto';
import { issueApiKey, revokeApiKey } from '../../src/app/identity.js';
import { issueInvitation, revokeInvitation } from '../../src/app/invitations.js';
import type { Actor } from '../../src/app/command-handler.js';
import type { Scope } from '../../src/domain/access/scopes.js';
import { DomainError } from '../../src/domain/errors.js';
import type { KeyUnderTest, MatrixRole } from './authorization-oracle.js';
import { ALL_SCOPES, type TestVigil } from './test-vigil.js';

const SEEDING: Actor = { kind: 'system', user_id: null, api_key_id: null, request_id: null };

/** One of everything an operation can name, in one project. */
export interface ProjectFixtures {
  projectId: string;
  /** A JOB_CRON monitor with one ping; patched, paused and resumed in place. */
  monitorId: string;
  pingId: string;
  /** A JOB_BASIC monitor that fails on demand, so each case can have an incident of its own. */
  incidentMonitorId: string;
  incidentId: string;
  /** An UPTIME_HTTP monitor with a check result. */
  uptimeMonitorId: string;
  /** A webhook to the local sink, in `groupId`. */
  channelId: string;
  groupId: string;
  /** A MEMBER whose role the matrix changes. */
  bystanderId: string;
  /** A status page showing `monitorId`. */
  statusPageId: string;
  /** An upcoming maintenance window over `monitorId`. */
  maintenanceWindowId: string;
  /** An on-call schedule rotating the keeper. */
  scheduleId: string;
  /** An escalation policy paging `groupId`, used by no monitor. */
  escalationPolicyId: string;
}

export type Aim = 'home' | 'foreign';

export interface Caller {
  userId: string;
  /** Its role on the world's home project; null: none. */
  role: MatrixRole | null;
  /** A project it owns besides: owning one lets a user mint account keys, and "bound elsewhere" keys are bound to it. */
  sideProjectId: string;
  key: Record<Aim, string>;
}

/**
 * Everything the matrix needs for one kind of key: a home project where five callers hold every
 * role (and none), each with that kind of key, and a foreign project another user owns. Worlds
 * share nothing, so they can run side by side.
 */
export interface World {
  label: string;
  key: KeyUnderTest;
  callers: Caller[];
  projects: Record<Aim, ProjectFixtures>;
  strangerId: string;
  strangerKeyId: string;
}

export interface IssuedKey {
  id: string;
  key: string;
}

/**
 * Builds worlds and, per case, the fresh things a destructive operation uses up. A keeper user
 * (MANAGER with every scope on every project the matrix aims at) builds them through the API.
 */
export class MatrixFixtures {
  private users = 0;

  private constructor(
    readonly vigil: TestVigil,
    readonly sinkUrl: string,
    private readonly keeperId: string,
    private readonly keeperKey: string,
    private readonly keeperProjectId: string,
  ) {}

  static async start(vigil: TestVigil, sinkUrl: string): Promise<MatrixFixtures> {
    const keeperId = await vigil.user('keeper@example.com');
    const keeperProjectId = await vigil.project(keeperId, 'Keeper');
    return new MatrixFixtures(vigil, sinkUrl, keeperId, await vigil.accountKey(keeperId, ALL_SCOPES), keeperProjectId);
  }

  async world(label: string, key: KeyUnderTest): Promise<World> {
    const strangerId = await this.user();
    const roles: (MatrixRole | null)[] = ['OWNER', 'MANAGER', 'MEMBER', 'READONLY', null];
    const people = await Promise.all(roles.map(async (role) => ({ role, userId: await this.user() })));
    const sideProjects = await Promise.all(people.map((person) => this.vigil.project(person.userId, 'Side')));
    const ownerId = people[0]!.userId;
    const homeId = await this.project(ownerId, people.flatMap(({ role, userId }) => (role && role !== 'OWNER' ? [[userId, role] as const] : [])));
    const foreignId = await this.project(strangerId, []);
    const [home, foreign] = await Promise.all([this.furnish(homeId), this.furnish(foreignId)]);
    const callers = await Promise.all(
      people.map(async ({ role, userId }, i): Promise<Caller> => {
        const sideProjectId = sideProjects[i]!;
        if (key.kind === 'account') {
          const account = (await this.apiKey(userId, { scopes: key.scopes })).key;
          return { userId, role, sideProjectId, key: { home: account, foreign: account } };
        }
        if (key.bound === 'elsewhere') {
          const side = (await this.apiKey(userId, { projectId: sideProjectId })).key;
          return { userId, role, sideProjectId, key: { home: side, foreign: side } };
        }
        // The one bound to the foreign project (and, for the caller with no role, the home one) is what a removed member keeps.
        const boundHome = await this.apiKey(userId, { projectId: homeId });
        const boundForeign = await this.apiKey(userId, { projectId: foreignId });
        return { userId, role, sideProjectId, key: { home: boundHome.key, foreign: boundForeign.key } };
      }),
    );
    const strangerKeyId = (await this.apiKey(strangerId, { scopes: ALL_SCOPES })).id;
    return { label, key, callers, projects: { home, foreign }, strangerId, strangerKeyId };
  }

  private readonly emails = new Map<string, string>();

  async user(): Promise<string> {
    this.users += 1;
    const email = `matrix-${this.users}@example.com`;
    const userId = await this.vigil.user(email);
    this.emails.set(userId, email);
    await this.vigil.settle();
    return userId;
  }

  /** An open invitation the keeper issued on a project it manages: to `userId`'s address (by default a new one), to the keeper's own project by default. */
  async invitation(projectId = this.keeperProjectId, userId?: string): Promise<{ id: string; token: string }> {
    const email = (userId && this.emails.get(userId)) ?? `invited-${randomUUID()}@example.com`;
    const issued = await issueInvitation(this.vigil.commands, { project_id: projectId, email, role: 'READONLY', invited_by: this.keeperId }, SEEDING);
    await this.vigil.settle();
    return { id: issued.invitationId, token: issued.token };
  }

  /** Leaves no invitation open for the next case to trip on; one accepted or revoked already stays as it is. */
  async revokeInvitation(projectId = this.keeperProjectId, invitationId: string): Promise<void> {
    await revokeInvitation(this.vigil.commands, { project_id: projectId, invitation_id: invitationId, revoked_by: this.keeperId }, SEEDING).catch((error: unknown) => {
      if (!(error instanceof DomainError && error.reason === 'conflict')) throw error;
    });
    await this.vigil.settle();
  }

  /** A project with the keeper as MANAGER, so it can furnish it. */
  private async project(ownerId: string, members: readonly (readonly [string, Exclude<MatrixRole, 'OWNER'>])[]): Promise<string> {
    const projectId = await this.vigil.project(ownerId, 'Aimed at');
    for (const [userId, role] of [...members, [this.keeperId, 'MANAGER'] as const]) await this.vigil.member(projectId, userId, role);
    await this.vigil.settle();
    return projectId;
  }

  private async furnish(projectId: string): Promise<ProjectFixtures> {
    const monitorId = await this.monitor(projectId, { type: 'JOB_CRON', schedule: '0 3 * * *' });
    const pingId = (await this.ping(monitorId, '')).ping_id;
    const incidentMonitorId = await this.monitor(projectId, { type: 'JOB_BASIC', schedule: '1h' });
    const uptimeMonitorId = await this.monitor(projectId, { type: 'UPTIME_HTTP', schedule: '1m', uptime_url: this.sinkUrl });
    const channelId = await this.channel(projectId);
    const groupId = await this.group(projectId);
    await this.keeper('POST', `/v1/notification-groups/${groupId}/channels`, { channel_id: channelId });
    const bystanderId = await this.member(projectId);
    const statusPageId = await this.statusPage(projectId);
    const maintenanceWindowId = await this.maintenanceWindow(projectId, monitorId);
    const scheduleId = await this.onCallSchedule(projectId);
    const escalationPolicyId = await this.escalationPolicy(projectId, groupId);
    const fixtures = { projectId, monitorId, pingId, incidentMonitorId, incidentId: '', uptimeMonitorId, channelId, groupId, bystanderId, statusPageId, maintenanceWindowId, scheduleId, escalationPolicyId };
    return { ...fixtures, incidentId: await this.openIncident(fixtures) };
  }

  async monitor(projectId: string, fields: Record<string, unknown> = { type: 'JOB_BASIC', schedule: '1h' }): Promise<string> {
    return (await this.keeper('POST', '/v1/monitors', { project_id: projectId, name: 'Matrix', ...fields })).monitor.id;
  }

  async statusPage(projectId: string): Promise<string> {
    return (await this.keeper('POST', `/v1/projects/${projectId}/status-pages`, { slug: `matrix-${randomUUID()}`, title: 'Matrix' })).status_page.id;
  }

  async maintenanceWindow(projectId: string, monitorId: string): Promise<string> {
    const body = { name: 'Matrix', monitor_ids: [monitorId], starts_at: '2027-01-01T00:00:00Z', ends_at: '2027-01-01T01:00:00Z' };
    return (await this.keeper('POST', `/v1/projects/${projectId}/maintenance-windows`, body)).maintenance_window.id;
  }

  async channel(projectId: string): Promise<string> {
    const body = { project_id: projectId, name: 'Sink', type: 'WEBHOOK', config: { url: this.sinkUrl } };
    return (await this.keeper('POST', '/v1/notification-channels', body)).channel.id;
  }

  async onCallSchedule(projectId: string): Promise<string> {
    const body = { project_id: projectId, name: 'Matrix', time_zone: 'UTC', handoff_time: '09:00', rotation: 'weekly', starts_on: '2026-01-05', participants: [this.keeperId] };
    return (await this.keeper('POST', '/v1/on-call-schedules', body)).on_call_schedule.id;
  }

  async group(projectId: string): Promise<string> {
    return (await this.keeper('POST', '/v1/notification-groups', { project_id: projectId, name: 'Matrix' })).group.id;
  }

  async escalationPolicy(projectId: string, groupId: string): Promise<string> {
    const body = { project_id: projectId, name: 'Matrix', steps: [{ delay_seconds: 0, notification_group_ids: [groupId] }] };
    return (await this.keeper('POST', '/v1/escalation-policies', body)).escalation_policy.id;
  }

  async attachedChannel(project: ProjectFixtures): Promise<string> {
    const channelId = await this.channel(project.projectId);
    await this.keeper('POST', `/v1/notification-groups/${project.groupId}/channels`, { channel_id: channelId });
    return channelId;
  }

  /** A new OPEN incident: a success resolves the last one, then a failure opens the next. */
  async openIncident(project: Pick<ProjectFixtures, 'projectId' | 'incidentMonitorId'>): Promise<string> {
    await this.ping(project.incidentMonitorId, '');
    await this.ping(project.incidentMonitorId, '/fail');
    await this.vigil.settle();
    const query = `project_id=${project.projectId}&monitor_id=${project.incidentMonitorId}&status=OPEN`;
    const [open] = (await this.keeper('GET', `/v1/incidents?${query}`)).data;
    if (!open) throw new Error('a failing ping opened no incident');
    return open.id;
  }

  async member(projectId: string): Promise<string> {
    const userId = await this.user();
    await this.vigil.member(projectId, userId, 'MEMBER');
    await this.vigil.settle();
    return userId;
  }

  /**
   * A project to destroy or rotate, where `caller` has the role it has on the home project (or
   * none, aimed abroad), and the key it would use there.
   */
  async disposableProject(world: World, caller: Caller, aim: Aim): Promise<{ projectId: string; key: string }> {
    const role = aim === 'home' ? caller.role : null;
    const projectId = await this.vigil.project(role === 'OWNER' ? caller.userId : world.strangerId, 'Disposable');
    if (role !== null && role !== 'OWNER') await this.vigil.member(projectId, caller.userId, role);
    await this.vigil.settle();
    const bound = world.key.kind === 'project' && world.key.bound === 'target';
    return { projectId, key: bound ? (await this.apiKey(caller.userId, { projectId })).key : caller.key[aim] };
  }

  /** Issued on the command side, as the CLI would: the API's own minting rules are under test. */
  async apiKey(userId: string, shape: { scopes: readonly Scope[] } | { projectId: string }): Promise<IssuedKey> {
    const project = 'projectId' in shape;
    const issued = await issueApiKey(
      this.vigil.commands,
      {
        user_id: userId,
        name: 'matrix',
        expires_in_days: 30,
        kind: project ? 'PROJECT' : 'ACCOUNT',
        project_id: project ? shape.projectId : null,
        scopes: project ? [] : [...shape.scopes],
        env: 'live',
        created_by_api_key_id: null,
      },
      SEEDING,
    );
    await this.vigil.settle();
    return { id: issued.event.api_key_id, key: issued.key };
  }

  /** Keeps a user under the three-active-keys limit; revoking a revoked key changes nothing. */
  async revoke(userId: string, apiKeyId: string): Promise<void> {
    await revokeApiKey(this.vigil.commands, { user_id: userId, api_key_id: apiKeyId, revoked_by_api_key_id: null }, SEEDING);
    await this.vigil.settle();
  }

  private async ping(monitorId: string, suffix: string): Promise<{ ping_id: string }> {
    const response = await this.vigil.request('GET', `/v1/ping/${monitorId}${suffix}`);
    if (response.status !== 200) throw new Error(`ping ${monitorId}${suffix}: ${response.status} ${response.text}`);
    return response.body;
  }

  private async keeper(method: string, path: string, body?: unknown): Promise<any> {
    const response = await this.vigil.request(method, path, { key: this.keeperKey, ...(body === undefined ? {} : { body }) });
    if (response.status >= 300) throw new Error(`fixture ${method} ${path}: ${response.status} ${response.text}`);
    return response.body;
  }
}
