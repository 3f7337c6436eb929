import { createHash } from 'node:crypto';
import { DomainError } from '../domain/errors.js';
import { oidcSubjectDecider, oidcSubjectStream } from '../domain/identity/oidc-subject.js';
import { userDecider, userStream } from '../domain/identity/user.js';
import { type Actor, handleCommand, loadState } from './command-handler.js';
import { type CommandContext, nowIso } from './context.js';
import { findUserIdByEmail, registerUser } from './identity.js';

/** A person as the OpenID Provider vouched for them, already admitted (verified email, allowed domain). */
export interface SsoIdentity {
  issuer: string;
  subject: string;
  email: string;
  firstName: string;
  lastName: string;
}

export interface SsoUser {
  userId: string;
  /** This sign-in created the account. */
  registered: boolean;
  /** The log position of the last event written, null when nothing was. */
  position: number | null;
}

/** A digest of issuer and subject: a `sub` is any string up to 255 characters, a stream name is not. */
export function subjectKey(issuer: string, subject: string): string {
  return createHash('sha256').update(issuer).update('\n').update(subject).digest('hex');
}

/**
 * The user a single sign-on names: the one its subject is linked to; else the one with its verified
 * email, linking the subject to them; else a new user, registered now, without a password. The
 * registration's actor says it came from single sign-on (`cause: 'oidc_sign_in'`), and so does the
 * link (`registered: true`). A crash between the two leaves a user with that email and no link: the
 * next sign-in finds them by email and links then.
 */
export async function userForSsoIdentity(context: CommandContext, identity: SsoIdentity, actor: Actor): Promise<SsoUser> {
  const stream = oidcSubjectStream(subjectKey(identity.issuer, identity.subject));
  for (let attempt = 1; ; attempt += 1) {
    const linked = (await loadState(context.events, stream, oidcSubjectDecider)).state.userId;
    if (linked !== null) return { userId: linked, registered: false, position: null };
    const existing = await findUserIdByEmail(context, identity.email);
    let userId = existing;
    let registered = false;
    let position: number | null = null;
    if (existing === null || !(await loadState(context.events, userStream(existing), userDecider)).state.registered) {
      try {
        const outcome = await registerUser(context, { email: identity.email, first_name: identity.firstName, last_name: identity.lastName }, { ...actor, cause: 'oidc_sign_in' });
        userId = outcome.user.id;
        registered = true;
        position = outcome.position;
      } catch (error) {
        // Another sign-in of the same person registered them a moment ago: look again.
        if (error instanceof DomainError && attempt < 3) continue;
        throw error;
      }
    }
    try {
      const link = await handleCommand(context, stream, oidcSubjectDecider, {
        type: 'LinkOidcSubject', user_id: userId!, issuer: identity.issuer, subject: identity.subject, email: identity.email, registered, now: nowIso(context),
      }, actor);
      return { userId: userId!, registered, position: link.position ?? position };
    } catch (error) {
      // Linked to someone else in the meantime (a concurrent first sign-in): that link stands.
      if (error instanceof DomainError && attempt < 3) continue;
      throw error;
    }
  }
}
