import { Refusal } from '../../app/refusal.js';
import * as t from 'io-ts';
import type { Context } from 'koa';
import type { EscalationPolicyDocument } from '../../../projections/escalation-policies.js';
import type { ChannelDocument } from '../../../projections/notification-channels.js';
import type { GroupDocument } from '../../../projections/notification-groups.js';
import type { OnCallScheduleDocument } from '../../../projections/on-call-schedules.js';
import type { ProjectDocument } from '../../../projections/projects.js';
import { actorOf } from '../../web/actor.js';
import { CreateEscalationPolicyBody, UpdateEscalationPolicyBody } from '../../web/codecs/escalation-policies.js';
import { settled } from '../../web/dependencies.js';
import { gate } from '../../app/gate.js';
import { DESTROY, WRITE as WRITE_NOTIFICATIONS } from '../../app/channel-changes.js';
import { decode } from '../../web/validation.js';
import { createEscalationPolicy, deleteEscalationPolicy, monitorsUsingPolicy, updateEscalationPolicy } from '../../app/escalation-policies.js';
import { assertSteps, stepOf } from '../../app/escalation-steps.js';
import { DomainError } from '../../domain/errors.js';
import { listMonitors } from '../../queries/monitors.js';
import { type PolicyFormValues, formRefusal, policyBodyFromForm, policyFormValues, typedPolicyValues } from '../escalation-form.js';
import { escalationPoliciesPage } from '../pages/escalation-policies.js';
import { type StepTargets, deletePolicyPage, policyFormPage } from '../pages/escalation-policy-form.js';
import type { ConsoleKit, ConsoleRoutes, ConsoleState } from '../kit.js';
import { render } from '../signed-in.js';
import { settingsTools } from './settings-tools.js';

type Ctx = Context & { state: ConsoleState };

/** The message of a refusal the form can show (a bad field), or null for anything else, which goes on up. */
function refusalMessage(error: unknown): string | null {
  if (error instanceof Refusal && error.status === 400) return error.message;
  if (error instanceof DomainError && error.reason === 'invalid') return error.message;
  return null;
}

/** `/projects/<id>/settings/escalation`: the project's escalation policies, with their forms: create, edit, delete. */
export const escalationPolicyRoutes: ConsoleRoutes = (kit: ConsoleKit) => {
  const { router, deps, signedIn, may } = kit;
  const { readModels, commands } = deps;
  const { readableProject, frame, projectDocument } = settingsTools(kit);
  const path = (projectId: string) => `/projects/${projectId}/settings/escalation`;
  const policyOf = (ctx: Ctx, requirement: Parameters<typeof gate>[2]) => projectDocument<EscalationPolicyDocument>(ctx, 'escalation_policies', 'policyId', 'escalation policy', requirement);

  router.get('/projects/:projectId/settings/escalation', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    const [policies, groups, channels, monitors, canWrite, canDestroy] = await Promise.all([
      readModels.find<EscalationPolicyDocument>('escalation_policies', { project_id: project.id }, { sort: [['created_at', 1]] }),
      readModels.find<GroupDocument>('notification_groups', { project_id: project.id }),
      readModels.find<ChannelDocument>('notification_channels', { project_id: project.id }),
      listMonitors(readModels, project.id),
      may(ctx.state.caller, WRITE_NOTIFICATIONS, project.id),
      may(ctx.state.caller, DESTROY, project.id),
    ]);
    const names = new Map([...groups.map((g) => [g.doc.id, g.doc.name] as const), ...channels.map((c) => [c.doc.id, c.doc.name] as const)]);
    const items = policies.map(({ doc: policy }) => ({
      policy,
      monitors: monitors.filter((m) => m.escalation_policy_id === policy.id).map((m) => ({ id: m.id, name: m.name })),
    }));
    render(ctx, escalationPoliciesPage(frame(ctx, project), items, names, { canWrite, canDestroy }));
  });

  async function targetsOf(projectId: string): Promise<StepTargets> {
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
    const [groups, channels, schedules] = await Promise.all([
      readModels.find<GroupDocument>('notification_groups', { project_id: projectId }),
      readModels.find<ChannelDocument>('notification_channels', { project_id: projectId }),
      readModels.find<OnCallScheduleDocument>('on_call_schedules', { project_id: projectId }),
    ]);
    const named = (found: { doc: { id: string; name: string } }[]) => found.map(({ doc }) => ({ id: doc.id, name: doc.name })).sort(byName);
    return { groups: named(groups), channels: named(channels), schedules: named(schedules) };
  }

  const showForm = async (ctx: Ctx, project: ProjectDocument, policy: EscalationPolicyDocument | null, values: PolicyFormValues, error: { field: string | null; message: string } | null) =>
    render(ctx, policyFormPage({ ...frame(ctx, project), policy, values, targets: await targetsOf(project.id), error }), error ? 400 : 200);

  /** Decodes the form with the API's codec and checks its steps as the API does; a refusal shows the form again in its words. */
  async function fromForm<A extends { steps?: unknown }>(ctx: Ctx, project: ProjectDocument, policy: EscalationPolicyDocument | null, codec: t.Decoder<unknown, A>, save: (body: A) => Promise<void>) {
    const values = typedPolicyValues(decode(t.UnknownRecord, ctx.request.body, 'form'));
    const { body, rowOfStep } = policyBodyFromForm(values);
    try {
      await save(decode(codec, body, 'form'));
    } catch (error) {
      const message = refusalMessage(error);
      if (message === null) throw error;
      await showForm(ctx, project, policy, values, formRefusal(message, rowOfStep));
    }
  }

  router.get('/projects/:projectId/settings/escalation/new', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    await gate(readModels, ctx.state.caller, WRITE_NOTIFICATIONS, project.id);
    await showForm(ctx, project, null, { name: '', repeat: '0', steps: [] }, null);
  });

  router.post('/projects/:projectId/settings/escalation', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    await gate(readModels, ctx.state.caller, WRITE_NOTIFICATIONS, project.id);
    await fromForm(ctx, project, null, CreateEscalationPolicyBody, async (input) => {
      const steps = input.steps.map(stepOf);
      await assertSteps(readModels, project.id, steps);
      const { policyId, position } = await createEscalationPolicy(commands, { project_id: project.id, settings: { name: input.name, steps, repeat: input.repeat ?? 0 } }, actorOf(ctx.state));
      await settled(deps, position);
      ctx.status = 303;
      ctx.redirect(`${path(project.id)}#policy-${policyId}`);
    });
  });

  router.get('/projects/:projectId/settings/escalation/:policyId/edit', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    const policy = await policyOf(ctx, WRITE_NOTIFICATIONS);
    await showForm(ctx, project, policy, policyFormValues(policy), null);
  });

  router.post('/projects/:projectId/settings/escalation/:policyId', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    const policy = await policyOf(ctx, WRITE_NOTIFICATIONS);
    await fromForm(ctx, project, policy, UpdateEscalationPolicyBody, async (input) => {
      const steps = (input.steps ?? []).map(stepOf);
      await assertSteps(readModels, project.id, steps);
      const outcome = await updateEscalationPolicy(commands, policy.id, { name: input.name ?? policy.name, steps, repeat: input.repeat ?? 0 }, actorOf(ctx.state));
      await settled(deps, outcome.position);
      ctx.status = 303;
      ctx.redirect(`${path(project.id)}#policy-${policy.id}`);
    });
  });

  router.get('/projects/:projectId/settings/escalation/:policyId/delete', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    const policy = await policyOf(ctx, DESTROY);
    const monitors = (await monitorsUsingPolicy(readModels, project.id, policy.id)).map((m) => ({ id: m.id, name: m.name }));
    render(ctx, deletePolicyPage({ ...frame(ctx, project), policy, monitors }));
  });

  router.post('/projects/:projectId/settings/escalation/:policyId/delete', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    const policy = await policyOf(ctx, DESTROY);
    const form = decode(t.partial({ clear_monitors: t.literal('true') }), ctx.request.body, 'form');
    // Without the confirmation's explicit choice, a policy that monitors took up since is refused (409), not cleared from them.
    const position = await deleteEscalationPolicy(commands, readModels, policy.id, project.id, { clearMonitors: form.clear_monitors === 'true' }, actorOf(ctx.state));
    await settled(deps, position);
    ctx.status = 303;
    ctx.redirect(path(project.id));
  });
};
