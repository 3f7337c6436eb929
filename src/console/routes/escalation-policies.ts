import type { EscalationPolicyDocument } from '../../../projections/escalation-policies.js';
import type { ChannelDocument } from '../../../projections/notification-channels.js';
import type { GroupDocument } from '../../../projections/notification-groups.js';
import { listMonitors } from '../../queries/monitors.js';
import { escalationPoliciesPage } from '../pages/escalation-policies.js';
import { type ConsoleKit, type ConsoleRoutes, render } from '../routes.js';
import { settingsTools } from './settings-tools.js';

/** `/projects/<id>/settings/escalation`: the project's escalation policies, read only. */
export const escalationPolicyRoutes: ConsoleRoutes = (kit: ConsoleKit) => {
  const { router, deps, signedIn } = kit;
  const { readModels } = deps;
  const { readableProject, frame } = settingsTools(kit);

  router.get('/projects/:projectId/settings/escalation', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    const [policies, groups, channels, monitors] = await Promise.all([
      readModels.find<EscalationPolicyDocument>('escalation_policies', { project_id: project.id }, { sort: [['created_at', 1]] }),
      readModels.find<GroupDocument>('notification_groups', { project_id: project.id }),
      readModels.find<ChannelDocument>('notification_channels', { project_id: project.id }),
      listMonitors(readModels, project.id),
    ]);
    const names = new Map([...groups.map((g) => [g.doc.id, g.doc.name] as const), ...channels.map((c) => [c.doc.id, c.doc.name] as const)]);
    const items = policies.map(({ doc: policy }) => ({
      policy,
      monitors: monitors.filter((m) => m.escalation_policy_id === policy.id).map((m) => ({ id: m.id, name: m.name })),
    }));
    render(ctx, escalationPoliciesPage(frame(ctx, project), items, names));
  });
};
