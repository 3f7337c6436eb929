import type { Router } from '@koa/router';
import { createEscalationPolicy, deleteEscalationPolicy, monitorsUsingPolicy, updateEscalationPolicy } from '../../app/escalation-policies.js';
import { assertSteps, stepOf } from '../../app/escalation-steps.js';
import type { EscalationPolicyDocument } from '../../../projections/escalation-policies.js';
import { actorOf } from '../../web/actor.js';
import { CreateEscalationPolicyBody, DeleteEscalationPolicyQuery, UpdateEscalationPolicyBody } from '../../web/codecs/escalation-policies.js';
import { ProjectScopeQuery, queryFields } from '../../web/codecs/queries.js';
import { type ApiDependencies, settled } from '../../web/dependencies.js';
import { HttpError } from '../../web/errors.js';
import { gate } from '../../app/gate.js';
import { gatedDocument, targetProject } from '../../web/monitor-access.js';
import type { VigilState } from '../../web/state.js';
import { decode } from '../../web/validation.js';
import { DESTROY, WRITE } from '../../app/channel-changes.js';

const READ = { scope: 'read' } as const;

export function escalationPolicyRoutes(router: Router<VigilState>, deps: ApiDependencies): void {
  const { readModels, commands } = deps;
  const gatedPolicy = (state: VigilState, rawId: string | undefined, requirement: Parameters<typeof gatedDocument>[5]) =>
    gatedDocument<EscalationPolicyDocument>(readModels, state, 'escalation_policies', rawId, 'escalation policy', requirement);

  const body = async (policy: EscalationPolicyDocument) => ({
    id: policy.id, project_id: policy.project_id, name: policy.name, steps: policy.steps, repeat: policy.repeat,
    monitors: (await monitorsUsingPolicy(readModels, policy.project_id, policy.id)).map((m) => ({ id: m.id, name: m.name })),
    created_at: policy.created_at, updated_at: policy.updated_at,
  });
  const fresh = async (id: string) => {
    const policy = (await readModels.get<EscalationPolicyDocument>('escalation_policies', id))?.doc;
    if (!policy) throw new HttpError(404, 'escalation policy not found');
    return body(policy);
  };

  router.get('/escalation-policies', async (ctx) => {
    const query = decode(ProjectScopeQuery, queryFields(ctx.query, ProjectScopeQuery), 'query');
    const projectId = targetProject(ctx.state, query.project_id);
    await gate(readModels, ctx.state.caller, READ, projectId);
    const found = await readModels.find<EscalationPolicyDocument>('escalation_policies', { project_id: projectId }, { sort: [['created_at', 1]] });
    ctx.body = { escalation_policies: await Promise.all(found.map((s) => body(s.doc))) };
  });

  router.get('/escalation-policies/:policyId', async (ctx) => {
    ctx.body = { escalation_policy: await body(await gatedPolicy(ctx.state, ctx.params['policyId'], READ)) };
  });

  router.post('/escalation-policies', async (ctx) => {
    await gate(readModels, ctx.state.caller, { scope: 'manage_notifications', accountKeyOnly: true }, null);
    const input = decode(CreateEscalationPolicyBody, ctx.request.body);
    const projectId = targetProject(ctx.state, input.project_id);
    await gate(readModels, ctx.state.caller, WRITE, projectId);
    const steps = input.steps.map(stepOf);
    await assertSteps(readModels, projectId, steps);
    const { policyId, position } = await createEscalationPolicy(commands, { project_id: projectId, settings: { name: input.name, steps, repeat: input.repeat ?? 0 } }, actorOf(ctx.state));
    await settled(deps, position, ctx.state);
    ctx.status = 201;
    ctx.body = { escalation_policy: await fresh(policyId) };
  });

  router.patch('/escalation-policies/:policyId', async (ctx) => {
    const policy = await gatedPolicy(ctx.state, ctx.params['policyId'], WRITE);
    const input = decode(UpdateEscalationPolicyBody, ctx.request.body);
    const steps = input.steps?.map(stepOf);
    if (steps) await assertSteps(readModels, policy.project_id, steps);
    const changes = { ...(input.name !== undefined ? { name: input.name } : {}), ...(steps ? { steps } : {}), ...(input.repeat !== undefined ? { repeat: input.repeat } : {}) };
    const outcome = await updateEscalationPolicy(commands, policy.id, changes, actorOf(ctx.state));
    await settled(deps, outcome.position, ctx.state);
    ctx.body = { escalation_policy: await fresh(policy.id) };
  });

  router.delete('/escalation-policies/:policyId', async (ctx) => {
    const policy = await gatedPolicy(ctx.state, ctx.params['policyId'], DESTROY);
    const query = decode(DeleteEscalationPolicyQuery, queryFields(ctx.query, DeleteEscalationPolicyQuery), 'query');
    const position = await deleteEscalationPolicy(commands, readModels, policy.id, policy.project_id, { clearMonitors: query.clear_monitors === 'true' }, actorOf(ctx.state));
    await settled(deps, position, ctx.state);
    ctx.status = 204;
  });
}
