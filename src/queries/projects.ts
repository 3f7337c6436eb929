import type { ReadModelStore } from '../readstore/read-model-store.js';
import type { MemberDocument } from '../../projections/project-members.js';
import type { ProjectDocument } from '../../projections/projects.js';
import type { UserDocument } from '../../projections/users.js';
import { getUsers } from './identity.js';

export interface ProjectDetails {
  project: ProjectDocument;
  members: MemberDocument[];
  users: Map<string, UserDocument>;
}

export async function getProject(readModels: ReadModelStore, projectId: string): Promise<ProjectDocument | null> {
  return (await readModels.get<ProjectDocument>('projects', projectId))?.doc ?? null;
}

/** Projects with their members and the users behind them, in two queries whatever their number. */
export async function projectDetails(readModels: ReadModelStore, projectIds: readonly string[]): Promise<ProjectDetails[]> {
  if (projectIds.length === 0) return [];
  const projects = (await readModels.find<ProjectDocument>('projects', { id: { $in: [...projectIds] } }, { sort: [['created_at', 1]] })).map((s) => s.doc);
  const members = (
    await readModels.find<MemberDocument>('project_members', { project_id: { $in: projects.map((p) => p.id) } }, { sort: [['joined_at', 1]] })
  ).map((s) => s.doc);
  const users = await getUsers(readModels, [...projects.map((p) => p.owner_id), ...members.map((m) => m.user_id)]);
  return projects.map((project) => ({ project, members: members.filter((m) => m.project_id === project.id), users }));
}

export async function projectIdsOfUser(readModels: ReadModelStore, userId: string): Promise<string[]> {
  return (await readModels.find<MemberDocument>('project_members', { user_id: userId })).map((s) => s.doc.project_id);
}

export async function getMember(readModels: ReadModelStore, projectId: string, userId: string): Promise<MemberDocument | null> {
  const [found] = await readModels.find<MemberDocument>('project_members', { project_id: projectId, user_id: userId }, { limit: 1 });
  return found?.doc ?? null;
}
