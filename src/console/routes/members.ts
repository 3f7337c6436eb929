import { Refusal } from '../../app/refusal.js';
import * as t from 'io-ts';
import type { Context } from 'koa';
import type { ProjectDocument } from '../../../projections/projects.js';
import { actorOf } from '../../web/actor.js';
import { InviteBody } from '../../web/codecs/invitations.js';
import { ASSIGNABLE_ROLES, ChangeMemberBody } from '../../web/codecs/projects.js';
import { settled, requesterOf } from '../../web/dependencies.js';
import { gate } from '../../app/gate.js';
import { HttpError } from '../../web/errors.js';
import { MANAGE as MANAGE_PROJECT } from '../../app/project-changes.js';
import { decode, pathId } from '../../web/validation.js';
import { revokeInvitation } from '../../app/invitations.js';
import { changeMemberRole, removeMember } from '../../app/projects.js';
import { roleAtLeast } from '../../domain/access/roles.js';
import { getUsers, roleOf } from '../../queries/identity.js';
import { getInvitation, waitingInvitations } from '../../queries/invitations.js';
import { projectDetails } from '../../queries/projects.js';
import type { ConsoleKit, ConsoleRoutes, ConsoleState } from '../kit.js';
import { render } from '../signed-in.js';
import { invitationIssuedPage, membersPage } from '../pages/members.js';
import { formBody, readableProject as readableProjectOf, redirectDone, settingsFrame, settingsPath } from './settings-common.js';
import { countInvitation, invitationDependencies } from '../../web/invitations.js';
import { inviteToProject } from '../../app/project-invitations.js';

/** What each members POST did, shown once on the page it returns to. */
const DONE = {
  'invitation-revoked': 'Invitation revoked: its link no longer works.',
  'role-changed': 'Role changed.',
  'member-removed': 'Member removed.',
} as const;

const InviteForm = t.type({ email: t.string, role: t.string });
const RoleForm = t.type({ role: t.string });

/** A project's members and their roles, from its settings. */
export const memberRoutes: ConsoleRoutes = (kit: ConsoleKit) => {
  const { router, deps, signedIn, may, clock } = kit;
  const { readModels, commands } = deps;
  const readableProject = (ctx: Context & { state: ConsoleState }) => readableProjectOf(deps, ctx);
  const frame = (ctx: Context & { state: ConsoleState }, project: ProjectDocument) => settingsFrame(ctx, project, DONE);

  async function membersView(ctx: Context & { state: ConsoleState }, project: ProjectDocument) {
    const [details] = await projectDetails(readModels, [project.id]);
    const members = (details?.members ?? []).map((m) => {
      const user = details!.users.get(m.user_id);
      return { userId: m.user_id, email: user?.email ?? m.user_id, name: user ? `${user.first_name} ${user.last_name}`.trim() : '', role: m.role, joinedAt: m.joined_at };
    });
    const canManage = await may(ctx.state.caller, MANAGE_PROJECT, project.id);
    const waiting = canManage ? await waitingInvitations(readModels, project.id) : [];
    const inviters = await getUsers(readModels, waiting.map((i) => i.invited_by));
    const invitations = waiting.map((invitation) => ({ invitation, invitedBy: inviters.get(invitation.invited_by)?.email ?? 'a former user' }));
    const own = await roleOf(readModels, project.id, ctx.state.caller.userId);
    const roles = ASSIGNABLE_ROLES.filter((r) => own !== null && roleAtLeast(own, r));
    return { ...frame(ctx, project), members, canManage, roles, invitations, now: clock() };
  }

  router.get('/projects/:projectId/settings/members', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    render(ctx, membersPage(await membersView(ctx, project)));
  });

  /** Invites an address: the answer shows the link this once, whether or not the address has an account. */
  router.post('/projects/:projectId/settings/invitations', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    await gate(readModels, ctx.state.caller, MANAGE_PROJECT, project.id);
    const form = formBody(ctx, InviteForm);
    let body;
    try {
      body = decode(InviteBody, { email: form.email.trim(), role: form.role }, 'form');
    } catch (error) {
      if (!(error instanceof Refusal) || error.status !== 400) throw error;
      render(ctx, membersPage({ ...(await membersView(ctx, project)), notice: null, invite: { email: form.email, role: form.role, error: error.message } }), 400);
      return;
    }
    await countInvitation(deps, ctx.state.caller.userId);
    const { invitation, url, mail } = await inviteToProject(invitationDependencies(deps), requesterOf(deps, ctx.state), project.id, body, `${ctx.protocol}://${ctx.host}`);
    render(ctx, invitationIssuedPage({
      ...frame(ctx, project), email: invitation.email, role: invitation.role, url, expiresAt: invitation.expires_at, mail: deps.config.smtp ? mail : null,
    }), 201);
  });

  router.post('/projects/:projectId/settings/invitations/:invitationId/revoke', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    await gate(readModels, ctx.state.caller, MANAGE_PROJECT, project.id);
    const invitationId = pathId(ctx.params['invitationId'], 'invitation');
    const invitation = await getInvitation(readModels, invitationId);
    if (!invitation || invitation.project_id !== project.id) throw new HttpError(404, 'invitation not found');
    const outcome = await revokeInvitation(commands, { project_id: project.id, invitation_id: invitationId, revoked_by: ctx.state.caller.userId }, actorOf(ctx.state));
    await settled(deps, outcome.position);
    redirectDone(ctx, settingsPath(project.id, 'members'), 'invitation-revoked');
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
