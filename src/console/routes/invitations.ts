import * as t from 'io-ts';
import type { Context } from 'koa';
import type { InvitationDocument } from '../../../projections/invitations.js';
import { settled } from '../../web/dependencies.js';
import { HttpError } from '../../web/errors.js';
import { BoundedString } from '../../web/validation.js';
import { actorOf } from '../../web/actor.js';
import { setPassword } from '../../app/accounts.js';
import type { Actor } from '../../app/command-handler.js';
import { registerUser } from '../../app/identity.js';
import { INVITATION_TOKEN_PATTERN, acceptInvitation, hashInvitationToken } from '../../app/invitations.js';
import { hashPassword } from '../../app/passwords.js';
import { DomainError } from '../../domain/errors.js';
import { normalizeEmail } from '../../domain/identity/email-claim.js';
import { getUser } from '../../queries/identity.js';
import { findInvitationByTokenHash, standingOfDocument } from '../../queries/invitations.js';
import { getProject } from '../../queries/projects.js';
import { readForm } from '../forms.js';
import type { Viewer } from '../layout.js';
import { type InvitationFacts, invitationGonePage, invitationPage } from '../pages/invitation.js';
import type { ConsoleKit, ConsoleRoutes } from '../kit.js';
import { clearSessionCookie, csrfTokenOf, hashSessionId, preSessionCsrfMatches, preSessionCsrfToken, sessionIdFrom } from '../session.js';
import { completeSignIn, endSessions } from '../sign-in-flow.js';
import { callerOfSession, render } from '../signed-in.js';
import { accountFieldErrors } from './setup.js';

const AccountForm = t.intersection([
  t.type({ name: BoundedString(0, 300), password: t.string, password_again: t.string }),
  t.partial({ csrf_token: t.string }),
]);

function invitationActor(ctx: Context): Actor {
  const requestId: unknown = ctx.state['requestId'];
  return { kind: 'user', user_id: null, api_key_id: null, request_id: typeof requestId === 'string' ? requestId : null, cause: 'invitation', request_ip: ctx.ip, request_ua: ctx.get('User-Agent') || null };
}

/**
 * `/invitations/<token>`: the link an invitation sends. Whoever opens it is offered what fits:
 * signed out, to sign in (any method, coming back here) or to create an account with the invited
 * address; signed in as that address, to join; signed in as anyone else, to sign out and go on as
 * the invited address, for an invitation names an address and only that account joins with it.
 */
export const invitationRoutes: ConsoleRoutes = (kit: ConsoleKit) => {
  const { router, deps, clock, sessions, signedIn } = kit;
  const { readModels, commands } = deps;

  /** The invitation the link names, or the page saying why it does not work (answered here: null). */
  async function openInvitation(ctx: Context & { params: Record<string, string> }, viewer: Viewer | null): Promise<{ invitation: InvitationDocument; facts: InvitationFacts; tokenHash: string } | null> {
    ctx.set('Cache-Control', 'no-store');
    // The token is the link's whole secret: it goes to no other page as a Referer.
    ctx.set('Referrer-Policy', 'no-referrer');
    const token = ctx.params['token'] ?? '';
    const tokenHash = hashInvitationToken(token);
    const invitation = INVITATION_TOKEN_PATTERN.test(token) ? await findInvitationByTokenHash(readModels, tokenHash) : null;
    const project = invitation ? await getProject(readModels, invitation.project_id) : null;
    if (!invitation || !project) {
      render(ctx, invitationGonePage('unknown', null, viewer), 404);
      return null;
    }
    const standing = standingOfDocument(invitation, clock());
    if (standing !== 'open') {
      render(ctx, invitationGonePage(standing, project.name, viewer), 410);
      return null;
    }
    const inviter = await getUser(readModels, invitation.invited_by);
    const invitedBy = inviter ? `${inviter.first_name} ${inviter.last_name}`.trim() || inviter.email : 'A Vigil user';
    return { invitation, tokenHash, facts: { token, projectName: project.name, email: invitation.email, role: invitation.role, invitedBy, expiresAt: invitation.expires_at } };
  }

  /** The browser's session, if it has a live one, without sending it to sign in when it has none. */
  async function currentViewer(ctx: Context): Promise<Viewer | null> {
    const id = sessionIdFrom(ctx);
    const session = id ? await sessions.find(hashSessionId(id), clock()) : null;
    if (!id || !session) return null;
    try {
      await callerOfSession(readModels, session, clock);
    } catch {
      return null;
    }
    const user = await getUser(readModels, session.userId);
    return user ? { email: user.email, csrfToken: csrfTokenOf(id) } : null;
  }

  router.get('/invitations/:token', async (ctx) => {
    const viewer = await currentViewer(ctx);
    const open = await openInvitation(ctx, viewer);
    if (!open) return;
    if (viewer === null) {
      render(ctx, invitationPage(open.facts, { kind: 'signed-out', csrfToken: preSessionCsrfToken(ctx), errors: {}, name: '' }));
      return;
    }
    render(ctx, invitationPage(open.facts, normalizeEmail(viewer.email) === open.invitation.email ? { kind: 'invitee', viewer } : { kind: 'someone-else', viewer }));
  });

  async function accept(ctx: Context, invitation: InvitationDocument, tokenHash: string, userId: string, actor: Actor): Promise<boolean> {
    try {
      const { position } = await acceptInvitation(commands, { project_id: invitation.project_id, invitation_id: invitation.id, token_hash: tokenHash, user_id: userId }, actor);
      await settled(deps, position);
      return true;
    } catch (error) {
      // Used or revoked between the page and the click: the page that says so.
      if (!(error instanceof DomainError) || error.reason !== 'conflict') throw error;
      render(ctx, invitationGonePage(/revoked/.test(error.message) ? 'revoked' : 'accepted', null, null), 410);
      return false;
    }
  }

  router.post('/invitations/:token/accept', signedIn, async (ctx) => {
    const open = await openInvitation(ctx, ctx.state.viewer);
    if (!open) return;
    if (normalizeEmail(ctx.state.viewer.email) !== open.invitation.email) {
      throw new HttpError(403, `this invitation is for ${open.invitation.email}; sign out and open the link again to accept it as that account`);
    }
    if (!(await accept(ctx, open.invitation, open.tokenHash, ctx.state.caller.userId, actorOf(ctx.state)))) return;
    ctx.status = 303;
    ctx.redirect(`/projects/${open.invitation.project_id}`);
  });

  /** Signed in as someone else: ends this session and comes back to the link, signed out. */
  router.post('/invitations/:token/switch', signedIn, async (ctx) => {
    const { session } = ctx.state;
    await sessions.delete(session.idHash);
    clearSessionCookie(ctx);
    await endSessions(kit, ctx, session.userId, [session.ref], 'signed_out');
    ctx.status = 303;
    ctx.redirect(`/invitations/${ctx.params['token'] ?? ''}`);
  });

  /** A new account with the invited address, which joins at once and is signed in. */
  router.post('/invitations/:token/account', async (ctx) => {
    const form = await readForm(ctx, AccountForm);
    const open = await openInvitation(ctx, null);
    if (!open) return;
    if (!preSessionCsrfMatches(ctx, form.csrf_token)) throw new HttpError(403, 'this form has expired; open the invitation link again');
    const again = (errors: Record<string, string>) =>
      render(ctx, invitationPage(open.facts, { kind: 'signed-out', csrfToken: preSessionCsrfToken(ctx), errors, name: form.name }), 400);
    const errors = accountFieldErrors({ name: form.name, password: form.password, password_again: form.password_again });
    if (Object.keys(errors).length > 0) return again(errors);
    const actor = invitationActor(ctx);
    let userId: string;
    try {
      ({ user: { id: userId } } = await registerUser(commands, { email: open.invitation.email, first_name: form.name.trim(), last_name: '' }, actor));
    } catch (error) {
      if (!(error instanceof DomainError) || error.reason !== 'invalid' || !/already exists/.test(error.message)) throw error;
      // Said only to whoever holds this link, about the one address it names.
      return again({ 'invited-email': `There is an account with ${open.invitation.email} already: sign in to accept the invitation` });
    }
    await setPassword(commands, { user_id: userId, password_hash: await hashPassword(form.password), reason: 'invitation' }, { ...actor, user_id: userId });
    if (!(await accept(ctx, open.invitation, open.tokenHash, userId, { ...actor, user_id: userId }))) return;
    await completeSignIn(kit, ctx, { userId, method: 'invitation', next: `/projects/${open.invitation.project_id}` });
  });
};
