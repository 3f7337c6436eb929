import { listMonitors } from '../queries/monitors.js';
import { getUser } from '../queries/identity.js';
import { getMember } from '../queries/projects.js';
import { configureAutoProvisioning } from './auto-provisioning.js';
import { deleteMonitor } from './monitor-deletion.js';
import { addMember, createProject, deleteProject, updateProject } from './projects.js';
import { Refusal, badInput } from './refusal.js';
import type { Requester, UseCaseDependencies } from './requester.js';

/** A role a member can be given (the owner's is not given, it is the creator's). */
export type MemberRole = Parameters<typeof addMember>[1]['role'];

/** A change of a project's settings (`PATCH /v1/projects/<id>`, the console's settings form). */
export type ProjectPatch = Omit<Parameters<typeof updateProject>[1], 'project_id'> & { auto_provisioning?: Parameters<typeof configureAutoProvisioning>[1]['patch'] | undefined };

export const MANAGE = { scope: 'manage_projects', accountKeyOnly: true, minimumRole: 'MANAGER' } as const;

/**
 * A member leaving: any role but the owner's (the domain refuses it), with an account key that may
 * manage projects. A member named by id is added without being asked, so each one may always undo it.
 */
export const LEAVE = { scope: 'manage_projects', accountKeyOnly: true } as const;

/** Adds a user, named by id, to the project with a role; the caller has passed the MANAGE gate. */
export async function addProjectMember(deps: UseCaseDependencies, requester: Requester, projectId: string, body: { user_id: string; role: MemberRole }) {
  const { readModels, commands } = deps;
  const userId = body.user_id;
  const user = await getUser(readModels, userId);
  if (!user) throw badInput(`no user has the id ${body.user_id}`);
  const outcome = await addMember(commands, { project_id: projectId, user_id: userId, role: body.role }, requester.actor);
  await requester.settled(outcome.position);
  const member = await getMember(readModels, projectId, userId);
  if (!member) throw new Refusal(404, 'member not found');
  return { member, user };
}

/** Who may create a project (and become its owner): any user, with an account key that may manage projects. */
export const CREATE = { scope: 'manage_projects', accountKeyOnly: true } as const;

/** Creates a project owned by the caller, as `POST /v1/projects` does; the caller has passed the CREATE gate. */
export async function newProject(deps: UseCaseDependencies, requester: Requester, body: { name: string; description?: string | undefined }): Promise<string> {
  const { projectId, position } = await createProject(deps.commands, { name: body.name, description: body.description ?? '', owner_id: requester.caller.userId }, requester.actor);
  await requester.settled(position);
  return projectId;
}

/** Who may delete a project: its owner, with an account key that has the destroy scope. */
export const DESTROY = { scope: 'destroy', accountKeyOnly: true, minimumRole: 'OWNER' } as const;

/** Changes a project as `PATCH /v1/projects/<id>` does; the caller has passed the MANAGE gate. */
export async function changeProject(deps: UseCaseDependencies, requester: Requester, projectId: string, patch: ProjectPatch): Promise<void> {
  const { auto_provisioning, ...body } = patch;
  // The setting first: refused (defaults that could make no monitor), it leaves the rest unchanged too.
  const configured = auto_provisioning ? await configureAutoProvisioning(deps.commands, { project_id: projectId, patch: auto_provisioning }, requester.actor) : null;
  const outcome = await updateProject(deps.commands, { project_id: projectId, ...body }, requester.actor);
  await requester.settled(outcome.position ?? configured?.position ?? null);
}

/** Deletes a project and everything in it, as `DELETE /v1/projects/<id>` does; the caller has passed the DESTROY gate. */
export async function removeProject(deps: UseCaseDependencies, requester: Requester, projectId: string): Promise<void> {
  // Everything in the project goes with it: its monitors, and with them their pings and incidents.
  for (const monitor of await listMonitors(deps.readModels, projectId)) {
    await requester.settled(await deleteMonitor({ ...deps, settled: requester.settled }, monitor.id, null, requester.actor));
  }
  const outcome = await deleteProject(deps.commands, { project_id: projectId }, requester.actor);
  await requester.settled(outcome.position);
}
