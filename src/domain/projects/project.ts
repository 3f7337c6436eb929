import type { Decider, DomainEvent } from '../decider.js';
import { invalid, notFound, rateLimited } from '../errors.js';
import type { Role } from '../access/roles.js';
import { type AutoProvisioning, type AutoProvisioningPatch, AUTO_PROVISIONING_DEFAULTS, mergeAutoProvisioning, provisionedConfig } from './auto-provisioning.js';
import { assertConsistent } from '../monitors/monitor-config.js';
import type { MonitorType } from '../monitors/schedule.js';
import { type Invitation, type InvitationCommand, type InvitationEvent, decideInvitation, evolveInvitations } from './invitations.js';

/** Roles the members API hands out: a project has exactly one OWNER, the user who created it. */
export type AssignableRole = Exclude<Role, 'OWNER'>;

export type ProjectEvent =
  | DomainEvent<'ProjectCreated', { project_id: string; name: string; description: string; owner_id: string; ping_key: string; created_at: string }>
  | DomainEvent<'ProjectUpdated', { project_id: string; name: string; description: string; updated_at: string }>
  | DomainEvent<'ProjectMemberAdded', { project_id: string; member_id: string; user_id: string; role: Role; joined_at: string }>
  | DomainEvent<'ProjectMemberRoleChanged', { project_id: string; user_id: string; role: Role; changed_at: string }>
  | DomainEvent<'ProjectMemberRemoved', { project_id: string; user_id: string; removed_at: string }>
  | DomainEvent<'ProjectPingKeyRotated', { project_id: string; ping_key: string; rotated_at: string }>
  /**
   * The project's badge key: a read-only, public capability for its badges (never its ping key).
   * Issued with the project, and again on request (an older project, or a rotation): the newest
   * one is the only one that works.
   */
  | DomainEvent<'ProjectBadgeKeyIssued', { project_id: string; badge_key: string; issued_at: string }>
  | DomainEvent<'ProjectDeleted', { project_id: string; deleted_at: string }>
  /** The project's settings for monitors created by a first ping to an unknown slug, whole after the change. */
  | DomainEvent<'ProjectAutoProvisioningConfigured', { project_id: string; auto_provisioning: AutoProvisioning; configured_at: string }>
  /**
   * A ping with `?create=1` to an unknown slug is creating a monitor: recorded on the project
   * first, where the hourly cap is decided, then the monitor is created with this id.
   */
  | DomainEvent<'MonitorAutoProvisioned', { project_id: string; monitor_id: string; slug: string; provisioned_at: string; request_ip: string | null; request_ua: string | null }>
  /**
   * A monitor was deleted: its project keeps the record that it existed and went. Recorded before
   * the monitor's own streams are hard-deleted, so it also says that a deletion is under way.
   * Version 2 adds its type and when the log recorded its creation (what a look at the past needs
   * once its streams are gone); null in a version 1 record.
   */
  | DomainEvent<
      'ProjectMonitorRemoved',
      { project_id: string; monitor_id: string; name: string; slug: string; monitor_type: MonitorType | null; monitor_created_at: string | null; removed_at: string }
    >
  /** The deleted monitor's own streams are hard-deleted: the last step of its deletion. */
  | DomainEvent<'ProjectMonitorStreamsDeleted', { project_id: string; monitor_id: string; deleted_at: string }>
  | InvitationEvent;

export type ProjectCommand =
  | { type: 'CreateProject'; project_id: string; name: string; description: string; owner_id: string; owner_member_id: string; ping_key: string; badge_key: string; now: string }
  | { type: 'UpdateProject'; project_id: string; name?: string; description?: string; now: string }
  | { type: 'AddMember'; project_id: string; member_id: string; user_id: string; role: AssignableRole; now: string }
  | { type: 'ChangeMemberRole'; project_id: string; user_id: string; role: AssignableRole; now: string }
  | { type: 'RemoveMember'; project_id: string; user_id: string; now: string }
  | { type: 'RotatePingKey'; project_id: string; ping_key: string; now: string }
  | { type: 'IssueBadgeKey'; project_id: string; badge_key: string; now: string }
  | { type: 'DeleteProject'; project_id: string; now: string }
  | { type: 'ConfigureAutoProvisioning'; project_id: string; patch: AutoProvisioningPatch; now: string }
  | { type: 'ProvisionMonitor'; project_id: string; monitor_id: string; slug: string; request_ip: string | null; request_ua: string | null; now: string }
  | {
      type: 'RecordMonitorRemoval';
      project_id: string;
      monitor_id: string;
      name: string;
      slug: string;
      monitor_type: MonitorType;
      monitor_created_at: string;
      now: string;
    }
  | { type: 'RecordMonitorStreamsDeletion'; project_id: string; monitor_id: string; now: string }
  | InvitationCommand;

export interface ProjectState {
  status: 'absent' | 'active' | 'deleted';
  name: string;
  description: string;
  ownerId: string | null;
  members: ReadonlyMap<string, Role>;
  /** Its deleted monitors, by how far their deletion has come. */
  monitorRemovals: ReadonlyMap<string, 'recorded' | 'streams_deleted'>;
  autoProvisioning: AutoProvisioning;
  /** Monitors created by a first ping, oldest first. */
  provisioned: readonly { slug: string; monitorId: string; at: string }[];
  /** Every invitation ever issued, by id (see invitations.ts). */
  invitations: ReadonlyMap<string, Invitation>;
}

export const projectStream = (projectId: string) => `project-${projectId}`;

export const projectDecider: Decider<ProjectCommand, ProjectState, ProjectEvent> = {
  initialState: () => ({
    status: 'absent', name: '', description: '', ownerId: null, members: new Map(), monitorRemovals: new Map(), autoProvisioning: AUTO_PROVISIONING_DEFAULTS, provisioned: [], invitations: new Map(),
  }),

  evolve(state, event) {
    switch (event.type) {
      case 'ProjectCreated':
        return { ...state, status: 'active', name: event.data.name, description: event.data.description, ownerId: event.data.owner_id };
      case 'ProjectUpdated':
        return { ...state, name: event.data.name, description: event.data.description };
      case 'ProjectMemberAdded':
      case 'ProjectMemberRoleChanged':
        return { ...state, members: new Map(state.members).set(event.data.user_id, event.data.role) };
      case 'ProjectMemberRemoved': {
        const members = new Map(state.members);
        members.delete(event.data.user_id);
        return { ...state, members };
      }
      case 'ProjectPingKeyRotated':
      case 'ProjectBadgeKeyIssued':
        return state;
      case 'ProjectMonitorRemoved':
        return { ...state, monitorRemovals: new Map(state.monitorRemovals).set(event.data.monitor_id, 'recorded') };
      case 'ProjectMonitorStreamsDeleted':
        return { ...state, monitorRemovals: new Map(state.monitorRemovals).set(event.data.monitor_id, 'streams_deleted') };
      case 'ProjectDeleted':
        return { ...state, status: 'deleted', members: new Map() };
      case 'ProjectAutoProvisioningConfigured':
        return { ...state, autoProvisioning: event.data.auto_provisioning };
      case 'MonitorAutoProvisioned':
        return { ...state, provisioned: [...state.provisioned, { slug: event.data.slug, monitorId: event.data.monitor_id, at: event.data.provisioned_at }] };
      case 'InvitationIssued':
      case 'InvitationAccepted':
      case 'InvitationRevoked':
        return { ...state, invitations: evolveInvitations(state.invitations, event) };
      default: {
        const exhaustive: never = event;
        return exhaustive;
      }
    }
  },

  decide(command, state) {
    if (command.type === 'CreateProject') {
      if (state.status !== 'absent') return [];
      const { project_id, name, description, owner_id, owner_member_id, ping_key, badge_key, now } = command;
      return [
        { type: 'ProjectCreated', data: { project_id, name, description, owner_id, ping_key, created_at: now } },
        { type: 'ProjectMemberAdded', data: { project_id, member_id: owner_member_id, user_id: owner_id, role: 'OWNER', joined_at: now } },
        { type: 'ProjectBadgeKeyIssued', data: { project_id, badge_key, issued_at: now } },
      ];
    }
    if (command.type === 'RecordMonitorRemoval' || command.type === 'RecordMonitorStreamsDeletion') return recordMonitorDeletion(command, state);
    if (state.status !== 'active') throw notFound('project not found');
    switch (command.type) {
      case 'UpdateProject': {
        const name = command.name ?? state.name;
        const description = command.description ?? state.description;
        if (name === state.name && description === state.description) return [];
        return [{ type: 'ProjectUpdated', data: { project_id: command.project_id, name, description, updated_at: command.now } }];
      }
      case 'AddMember': {
        if (state.members.has(command.user_id)) throw invalid('that user is already a member of the project');
        const { project_id, member_id, user_id, role, now } = command;
        return [{ type: 'ProjectMemberAdded', data: { project_id, member_id, user_id, role, joined_at: now } }];
      }
      case 'ChangeMemberRole': {
        const current = state.members.get(command.user_id);
        if (current === undefined) throw notFound('member not found');
        if (command.user_id === state.ownerId) throw invalid("the project owner's role cannot be changed");
        if (current === command.role) return [];
        const { project_id, user_id, role, now } = command;
        return [{ type: 'ProjectMemberRoleChanged', data: { project_id, user_id, role, changed_at: now } }];
      }
      case 'RemoveMember': {
        if (!state.members.has(command.user_id)) throw notFound('member not found');
        if (command.user_id === state.ownerId) throw invalid('the project owner cannot be removed');
        return [{ type: 'ProjectMemberRemoved', data: { project_id: command.project_id, user_id: command.user_id, removed_at: command.now } }];
      }
      case 'RotatePingKey':
        return [{ type: 'ProjectPingKeyRotated', data: { project_id: command.project_id, ping_key: command.ping_key, rotated_at: command.now } }];
      case 'IssueBadgeKey':
        return [{ type: 'ProjectBadgeKeyIssued', data: { project_id: command.project_id, badge_key: command.badge_key, issued_at: command.now } }];
      case 'DeleteProject':
        return [{ type: 'ProjectDeleted', data: { project_id: command.project_id, deleted_at: command.now } }];
      case 'ConfigureAutoProvisioning': {
        const next = mergeAutoProvisioning(state.autoProvisioning, command.patch);
        // The defaults must make a monitor that can be created: refused here, not at the first ping.
        assertConsistent(provisionedConfig(next.defaults, 'example'), command.now);
        if (JSON.stringify(next) === JSON.stringify(state.autoProvisioning)) return [];
        return [{ type: 'ProjectAutoProvisioningConfigured', data: { project_id: command.project_id, auto_provisioning: next, configured_at: command.now } }];
      }
      case 'ProvisionMonitor':
        return provisionMonitor(command, state);
      case 'IssueInvitation':
      case 'RevokeInvitation':
        return decideInvitation(command, state);
      default: {
        const exhaustive: never = command;
        return exhaustive;
      }
    }
  },
};

/**
 * The steps of a monitor's deletion that its project records, each once however often a resumed
 * deletion asks. Also in a project deleted since: a deletion under way still comes to its end.
 */
function recordMonitorDeletion(
  command: Extract<ProjectCommand, { type: 'RecordMonitorRemoval' | 'RecordMonitorStreamsDeletion' }>,
  state: ProjectState,
): ProjectEvent[] {
  if (state.status === 'absent') throw notFound('project not found');
  const { project_id, monitor_id, now } = command;
  const reached = state.monitorRemovals.get(monitor_id);
  if (command.type === 'RecordMonitorRemoval') {
    if (reached !== undefined) return [];
    const { name, slug, monitor_type, monitor_created_at } = command;
    return [{ type: 'ProjectMonitorRemoved', data: { project_id, monitor_id, name, slug, monitor_type, monitor_created_at, removed_at: now } }];
  }
  if (reached === 'streams_deleted') return [];
  return [{ type: 'ProjectMonitorStreamsDeleted', data: { project_id, monitor_id, deleted_at: now } }];
}

/** The monitor a first ping is creating for this slug, still to be finished (or since created): null when there is none. */
export function provisioningOf(state: ProjectState, slug: string): string | null {
  const last = state.provisioned.findLast((p) => p.slug === slug);
  return last && !state.monitorRemovals.has(last.monitorId) ? last.monitorId : null;
}

export const HOUR_MS = 3_600_000;

/** Monitors created by a first ping in the hour before `now`. */
export function provisionedInHour(state: ProjectState, now: string): number {
  const since = Date.parse(now) - HOUR_MS;
  return state.provisioned.filter((p) => Date.parse(p.at) > since).length;
}

/**
 * Decided on the project's stream, so that however many API processes receive first pings, no
 * more than max_per_hour monitors are created in any hour. A slug whose creation is already under
 * way (or done) decides nothing: the caller finishes that one.
 */
function provisionMonitor(command: Extract<ProjectCommand, { type: 'ProvisionMonitor' }>, state: ProjectState): ProjectEvent[] {
  if (provisioningOf(state, command.slug) !== null) return [];
  const settings = state.autoProvisioning;
  if (!settings.enabled) throw notFound('monitor not found');
  if (provisionedInHour(state, command.now) >= settings.max_per_hour) {
    throw rateLimited(`this project may create at most ${settings.max_per_hour} monitors per hour on first ping; the monitor was not created`);
  }
  const { project_id, monitor_id, slug, request_ip, request_ua, now } = command;
  return [{ type: 'MonitorAutoProvisioned', data: { project_id, monitor_id, slug, provisioned_at: now, request_ip, request_ua } }];
}

/** A member's role, or null when the user is not a member (or the project is gone). */
export function roleOf(state: ProjectState, userId: string): Role | null {
  return state.status === 'active' ? (state.members.get(userId) ?? null) : null;
}
