import type { MemberDocument } from '../../../projections/project-members.js';
import type { UserDocument } from '../../../projections/users.js';
import type { ProjectDetails } from '../../queries/projects.js';
import { withoutMilliseconds } from './timestamps.js';

export function userBody(user: UserDocument | undefined) {
  return user ? { id: user.id, email: user.email, first_name: user.first_name, last_name: user.last_name } : null;
}

export function memberBody(member: MemberDocument, user?: UserDocument) {
  return {
    id: member.id,
    project_id: member.project_id,
    user_id: member.user_id,
    role: member.role,
    joined_at: withoutMilliseconds(member.joined_at),
    ...(user ? { user: userBody(user) } : {}),
  };
}

/** The single-project read embeds each member's user; the list does not. */
export function projectBody({ project, members, users }: ProjectDetails, options: { embedUsers: boolean }) {
  return {
    id: project.id,
    name: project.name,
    description: project.description,
    owner_id: project.owner_id,
    owner: userBody(users.get(project.owner_id)),
    members: members.map((member) => memberBody(member, options.embedUsers ? users.get(member.user_id) : undefined)),
    _count: { members: members.length },
    ping_key: project.ping_key,
    auto_provisioning: project.auto_provisioning,
    created_at: withoutMilliseconds(project.created_at),
    updated_at: withoutMilliseconds(project.updated_at),
  };
}
