import type { Role } from '../domain/access/roles.js';
import { type AssignableRole, type ProjectCommand, projectDecider, projectStream, roleOf } from '../domain/projects/project.js';
import { type Actor, handleCommand, loadState } from './command-handler.js';
import { type CommandContext, nowIso } from './context.js';
import { newBadgeKey } from './badge-keys.js';
import { newPingKey } from './random-tokens.js';
import { recentPingKeys } from './recent-ping-keys.js';

type WithoutContext<C> = C extends unknown ? Omit<C, 'now' | 'type'> : never;

async function run(context: CommandContext, command: ProjectCommand, actor: Actor) {
  return handleCommand(context, projectStream(command.project_id), projectDecider, command, actor);
}

export async function createProject(
  context: CommandContext,
  input: { name: string; description: string; owner_id: string },
  actor: Actor,
): Promise<{ projectId: string; pingKey: string; position: number | null }> {
  const projectId = context.newId();
  const pingKey = newPingKey();
  const outcome = await run(
    context,
    { ...input, type: 'CreateProject', project_id: projectId, owner_member_id: context.newId(), ping_key: pingKey, badge_key: newBadgeKey(), now: nowIso(context) },
    actor,
  );
  return { projectId, pingKey, position: outcome.position };
}

export async function updateProject(context: CommandContext, input: WithoutContext<Extract<ProjectCommand, { type: 'UpdateProject' }>>, actor: Actor) {
  return run(context, { ...input, type: 'UpdateProject', now: nowIso(context) }, actor);
}

export async function addMember(context: CommandContext, input: { project_id: string; user_id: string; role: AssignableRole }, actor: Actor) {
  return run(context, { ...input, type: 'AddMember', member_id: context.newId(), now: nowIso(context) }, actor);
}

export async function changeMemberRole(context: CommandContext, input: { project_id: string; user_id: string; role: AssignableRole }, actor: Actor) {
  return run(context, { ...input, type: 'ChangeMemberRole', now: nowIso(context) }, actor);
}

export async function removeMember(context: CommandContext, input: { project_id: string; user_id: string }, actor: Actor) {
  return run(context, { ...input, type: 'RemoveMember', now: nowIso(context) }, actor);
}

export async function rotatePingKey(context: CommandContext, input: { project_id: string }, actor: Actor) {
  const outcome = await run(context, { ...input, type: 'RotatePingKey', ping_key: newPingKey(), now: nowIso(context) }, actor);
  recentPingKeys.forget(input.project_id, outcome.position);
  return outcome;
}

/** Issues the project's badge key, or a new one in place of the old (whose badge URLs then stop working). */
export async function issueBadgeKey(context: CommandContext, input: { project_id: string }, actor: Actor) {
  return run(context, { ...input, type: 'IssueBadgeKey', badge_key: newBadgeKey(), now: nowIso(context) }, actor);
}

export async function deleteProject(context: CommandContext, input: { project_id: string }, actor: Actor) {
  const outcome = await run(context, { ...input, type: 'DeleteProject', now: nowIso(context) }, actor);
  recentPingKeys.forget(input.project_id, outcome.position);
  return outcome;
}

/** Command-side read of a user's role, for decisions that must not trust a lagging read model. */
export async function roleOnProject(context: CommandContext, projectId: string, userId: string): Promise<Role | null> {
  const { state } = await loadState(context.events, projectStream(projectId), projectDecider);
  return roleOf(state, userId);
}
