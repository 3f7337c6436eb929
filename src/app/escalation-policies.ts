import { type PolicySettings, escalationPolicyDecider, escalationPolicyStream } from '../domain/escalation/policy.js';
import { conflict } from '../domain/errors.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';
import type { MonitorDocument } from '../../projections/monitors.js';
import { type Actor, handleCommand } from './command-handler.js';
import { type CommandContext, nowIso } from './context.js';
import { updateMonitor } from './monitors.js';

export async function createEscalationPolicy(context: CommandContext, input: { project_id: string; settings: PolicySettings }, actor: Actor) {
  const policyId = context.newId();
  const outcome = await handleCommand(
    context, escalationPolicyStream(policyId), escalationPolicyDecider,
    { type: 'CreateEscalationPolicy', policy_id: policyId, project_id: input.project_id, settings: input.settings, now: nowIso(context) }, actor,
  );
  return { policyId, position: outcome.position };
}

export const updateEscalationPolicy = (context: CommandContext, policyId: string, changes: Partial<PolicySettings>, actor: Actor) =>
  handleCommand(context, escalationPolicyStream(policyId), escalationPolicyDecider, { type: 'UpdateEscalationPolicy', policy_id: policyId, changes, now: nowIso(context) }, actor);

/** The project's monitors that page through the policy. */
export async function monitorsUsingPolicy(readModels: ReadModelStore, projectId: string, policyId: string): Promise<MonitorDocument[]> {
  return (await readModels.find<MonitorDocument>('monitors', { project_id: projectId })).map((s) => s.doc).filter((m) => m.escalation_policy_id === policyId);
}

/**
 * Deleting a policy that monitors use is refused, naming them, unless the caller chose to clear
 * it from them: each monitor is changed first, then the policy deleted. A crash half-way leaves
 * some monitors cleared and the policy in place; the same request again clears the rest and
 * deletes it (each step is a no-op once done). Running escalations keep their snapshot.
 */
export async function deleteEscalationPolicy(
  context: CommandContext,
  readModels: ReadModelStore,
  policyId: string,
  projectId: string,
  options: { clearMonitors: boolean },
  actor: Actor,
): Promise<number | null> {
  const users = await monitorsUsingPolicy(readModels, projectId, policyId);
  if (users.length > 0 && !options.clearMonitors) {
    throw conflict(`escalation policy is used by ${users.map((m) => `"${m.name}" (${m.id})`).join(', ')}: change their escalation_policy_id first, or delete with ?clear_monitors=true`);
  }
  let position: number | null = null;
  for (const monitor of users) position = (await updateMonitor(context, monitor.id, { escalation_policy_id: null }, actor)).position ?? position;
  const outcome = await handleCommand(context, escalationPolicyStream(policyId), escalationPolicyDecider, { type: 'DeleteEscalationPolicy', policy_id: policyId, now: nowIso(context) }, actor);
  return outcome.position ?? position;
}
