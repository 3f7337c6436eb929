import type { Decider, DomainEvent } from '../decider.js';
import { invalid, notFound } from '../errors.js';
import type { Role } from '../access/roles.js';

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
  /**
   * A monitor was deleted: its project keeps the record that it existed and went. Recorded before
   * the monitor's own streams are hard-deleted, so it also says that a deletion is under way.
   */
  | DomainEvent<'ProjectMonitorRemoved', { project_id: string; monitor_id: string; name: string; slug: string; removed_at: string }>
  /** The deleted monitor's own streams are hard-deleted: the last step of its deletion. */
  | DomainEvent<'ProjectMonitorStreamsDeleted', { project_id: string; monitor_id: string; deleted_at: string }>;

export type ProjectCommand =
  | { type: 'CreateProject'; project_id: string; name: string; description: string; owner_id: string; owner_member_id: string; ping_key: string; badge_key: string; now: string }
  | { type: 'UpdateProject'; project_id: string; name?: string; description?: string; now: string }
  | { type: 'AddMember'; project_id: string; member_id: string; user_id: string; role: AssignableRole; now: string }
  | { type: 'ChangeMemberRole'; project_id: string; user_id: string; role: AssignableRole; now: string }
  | { type: 'RemoveMember'; project_id: string; user_id: string; now: string }
  | { type: 'RotatePingKey'; project_id: string; ping_key: string; now: string }
  | { type: 'IssueBadgeKey'; project_id: string; badge_key: string; now: string }
  | { type: 'DeleteProject'; project_id: string; now: string }
  | { type: 'RecordMonitorRemoval'; project_id: string; monitor_id: string; name: string; slug: string; now: string }
  | { type: 'RecordMonitorStreamsDeletion'; project_id: string; monitor_id: string; now: string };

export interface ProjectState {
  status: 'absent' | 'active' | 'deleted';
  name: string;
  description: string;
  ownerId: string | null;
  members: ReadonlyMap<string, Role>;
  /** Its deleted monitors, by how far their deletion has come. */
  monitorRemovals: ReadonlyMap<string, 'recorded' | 'streams_deleted'>;
}

export const projectStream = (projectId: string) => `project-${projectId}`;

export const projectDecider: Decider<ProjectCommand, ProjectState, ProjectEvent> = {
  initialState: () => ({ status: 'absent', name: '', description: '', ownerId: null, members: new Map(), monitorRemovals: new Map() }),

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
    return [{ type: 'ProjectMonitorRemoved', data: { project_id, monitor_id, name: command.name, slug: command.slug, removed_at: now } }];
  }
  if (reached === 'streams_deleted') return [];
  return [{ type: 'ProjectMonitorStreamsDeleted', data: { project_id, monitor_id, deleted_at: now } }];
}

/** A member's role, or null when the user is not a member (or the project is gone). */
export function roleOf(state: ProjectState, userId: string): Role | null {
  return state.status === 'active' ? (state.members.get(userId) ?? null) : null;
}
