import type { Role } from '../src/domain/access/roles.js';
import type { Projection } from '../src/projector/projection.js';

export interface MemberDocument {
  [key: string]: string;
  id: string;
  project_id: string;
  user_id: string;
  role: Role;
  joined_at: string;
}

/** One document per membership, keyed by project and user so a role lookup is one read. */
export const membershipId = (projectId: string, userId: string) => `${projectId}:${userId}`;

export const projectMembersProjection: Projection<MemberDocument> = {
  name: 'project_members',
  version: 1,
  collection: { name: 'project_members', indexes: [{ fields: ['project_id'] }, { fields: ['user_id'] }] },
  handles: ['ProjectMemberAdded', 'ProjectMemberRoleChanged', 'ProjectMemberRemoved', 'ProjectDeleted'],
  targets(event) {
    switch (event.type) {
      case 'ProjectDeleted':
        return { where: { project_id: event.data.project_id } };
      case 'ProjectMemberAdded':
      case 'ProjectMemberRoleChanged':
      case 'ProjectMemberRemoved':
        return { ids: [membershipId(event.data.project_id, event.data.user_id)] };
      default:
        return { ids: [] };
    }
  },
  apply(doc, event) {
    switch (event.type) {
      case 'ProjectMemberAdded': {
        const { member_id, project_id, user_id, role, joined_at } = event.data;
        return { id: member_id, project_id, user_id, role, joined_at };
      }
      case 'ProjectMemberRoleChanged':
        return doc && { ...doc, role: event.data.role };
      case 'ProjectMemberRemoved':
      case 'ProjectDeleted':
        return null;
      default:
        return doc;
    }
  },
};
