import * as t from 'io-ts';
import type { Context } from 'koa';
import type { ProjectDocument } from '../../../projections/projects.js';
import { actorOf } from '../../api/actor.js';
import { ASSIGNABLE_ROLES, AddMemberBody, ChangeMemberBody } from '../../api/codecs/projects.js';
import { settled } from '../../api/dependencies.js';
import { gate } from '../../api/gate.js';
import { MANAGE as MANAGE_PROJECT, addProjectMember } from '../../api/routes/projects.js';
import { decode, pathId } from '../../api/validation.js';
import { changeMemberRole, removeMember } from '../../app/projects.js';
import { projectDetails } from '../../queries/projects.js';
import type { ConsoleKit, ConsoleRoutes, ConsoleState } from '../routes.js';
import { render } from '../routes.js';
import { membersPage } from '../pages/members.js';
import { formBody, readableProject as readableProjectOf, redirectDone, settingsFrame, settingsPath } from './settings-common.js';

/** What each members POST did, shown once on the page it returns to. */
const DONE = {
  'member-added': 'Member added.',
  'role-changed': 'Role changed.',
  'member-removed': 'Member removed.',
} as const;

const MemberForm = t.type({ email: t.string, role: t.string });
const RoleForm = t.type({ role: t.string });

/** A project's members and their roles, from its settings. */
export const memberRoutes: ConsoleRoutes = (kit: ConsoleKit) => {
  const { router, deps, signedIn, may } = kit;
  const { readModels, commands } = deps;
  const readableProject = (ctx: Context & { state: ConsoleState }) => readableProjectOf(deps, ctx);
  const frame = (ctx: Context & { state: ConsoleState }, project: ProjectDocument) => settingsFrame(ctx, project, DONE);

  router.get('/projects/:projectId/settings/members', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    const [details] = await projectDetails(readModels, [project.id]);
    const members = (details?.members ?? []).map((m) => {
      const user = details!.users.get(m.user_id);
      return { userId: m.user_id, email: user?.email ?? m.user_id, name: user ? `${user.first_name} ${user.last_name}`.trim() : '', role: m.role, joinedAt: m.joined_at };
    });
    const canManage = await may(ctx.state.caller, MANAGE_PROJECT, project.id);
    render(ctx, membersPage({ ...frame(ctx, project), members, canManage, roles: ASSIGNABLE_ROLES }));
  });

  router.post('/projects/:projectId/settings/members', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    await gate(readModels, ctx.state.caller, MANAGE_PROJECT, project.id);
    const form = formBody(ctx, MemberForm);
    await addProjectMember(deps, ctx.state, project.id, decode(AddMemberBody, { email: form.email.trim(), role: form.role }, 'form'));
    redirectDone(ctx, settingsPath(project.id, 'members'), 'member-added');
  });

  router.post('/projects/:projectId/settings/members/:userId/role', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    await gate(readModels, ctx.state.caller, MANAGE_PROJECT, project.id);
    const userId = pathId(ctx.params['userId'], 'member');
    const { role } = decode(ChangeMemberBody, formBody(ctx, RoleForm), 'form');
    const outcome = await changeMemberRole(commands, { project_id: project.id, user_id: userId, role }, actorOf(ctx.state));
    await settled(deps, outcome.position);
    redirectDone(ctx, settingsPath(project.id, 'members'), 'role-changed');
  });

  router.post('/projects/:projectId/settings/members/:userId/remove', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    await gate(readModels, ctx.state.caller, MANAGE_PROJECT, project.id);
    const userId = pathId(ctx.params['userId'], 'member');
    const outcome = await removeMember(commands, { project_id: project.id, user_id: userId }, actorOf(ctx.state));
    await settled(deps, outcome.position);
    redirectDone(ctx, settingsPath(project.id, 'members'), 'member-removed');
  });
};
