import type { Decider, DomainEvent } from '../decider.js';
import { invalid } from '../errors.js';

/**
 * How a person proved who they are. `api_key` is the automation door (a key pasted into the sign-in
 * form); every other method opens a session of the person, with all their roles.
 */
export const SIGN_IN_METHODS = ['api_key', 'password', 'passkey', 'oidc', 'setup', 'invitation', 'reset'] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];

export const isSignInMethod = (value: unknown): value is SignInMethod => typeof value === 'string' && (SIGN_IN_METHODS as readonly string[]).includes(value);

/**
 * Why a sign-in failed, as the log records it (never shown to the one who tried). Other methods
 * add theirs: the field is a string so that a newer Vigil's reason never stops an older one reading.
 */
export type SignInFailure =
  | 'unknown_account'
  | 'wrong_password'
  | 'no_password'
  | 'throttled'
  | 'wrong_api_key'
  | 'revoked_api_key'
  | 'expired_api_key'
  | 'wrong_second_factor'
  | (string & {});

/** Why a session ended. */
export type SessionEnding = 'signed_out' | 'ended_by_user' | 'password_changed' | 'password_reset' | 'replaced' | (string & {});

/** Where the request came from, clipped: a user agent is whatever the client sent. */
export interface SignInCircumstances {
  client_address: string | null;
  user_agent: string | null;
}

export type SignInEvent =
  | DomainEvent<'UserSignedIn', {
    user_id: string;
    session_ref: string;
    method: string;
    /** The second factor passed on the way in (`totp`, `passkey`, `recovery_code`), or null. */
    second_factor: string | null;
    /** The key a `method: api_key` session was opened with. */
    api_key_id: string | null;
    signed_in_at: string;
  } & SignInCircumstances>
  | DomainEvent<'UserSignInFailed', {
    /** Null when the email named no account: the attempt is recorded, the address typed is not (it may be a password typed in the wrong field). */
    user_id: string | null;
    method: string;
    reason: string;
    failed_at: string;
  } & SignInCircumstances>
  | DomainEvent<'UserSessionEnded', {
    user_id: string;
    session_ref: string;
    reason: string;
    ended_at: string;
  }>;

export type SignInCommand =
  | ({ type: 'RecordSignIn'; user_id: string; session_ref: string; method: SignInMethod; second_factor: string | null; api_key_id: string | null; now: string } & SignInCircumstances)
  | ({ type: 'RecordSignInFailure'; user_id: string | null; method: SignInMethod; reason: SignInFailure; now: string } & SignInCircumstances)
  | { type: 'RecordSessionsEnded'; user_id: string; session_refs: readonly string[]; reason: SessionEnding; now: string };

/**
 * A person's sign-ins, failed sign-ins and ended sessions: `signins-<user id>`; failures for an
 * email that names no account go to `signins-unknown`. Apart from the user's own stream, which
 * every change to the account folds: these only grow, and nothing is decided from them.
 */
export const signInStream = (userId: string | null) => (userId === null ? 'signins-unknown' : `signins-${userId}`);

const USER_AGENT_LENGTH = 300;
const ADDRESS_LENGTH = 64;

const clip = (text: string | null, length: number): string | null => {
  if (text === null) return null;
  // Control characters would reach every page and export that shows the record.
  const clean = text.replace(/[\u0000-\u001f\u007f]/g, ' ').trim();
  return clean === '' ? null : clean.slice(0, length);
};

const circumstances = (c: SignInCircumstances): SignInCircumstances => ({ client_address: clip(c.client_address, ADDRESS_LENGTH), user_agent: clip(c.user_agent, USER_AGENT_LENGTH) });

/**
 * A record, not a decision: every command is recorded as it comes (the app appends without
 * reading the stream), so the state is empty. What it checks is the command alone.
 */
export const signInDecider: Decider<SignInCommand, Record<string, never>, SignInEvent> = {
  initialState: () => ({}),
  evolve: (state) => state,
  decide(command) {
    switch (command.type) {
      case 'RecordSignIn': {
        if (!isSignInMethod(command.method)) throw invalid(`unknown sign-in method ${String(command.method)}`);
        const { user_id, session_ref, method, second_factor, api_key_id, now } = command;
        return [{ type: 'UserSignedIn', data: { user_id, session_ref, method, second_factor, api_key_id: method === 'api_key' ? api_key_id : null, ...circumstances(command), signed_in_at: now } }];
      }
      case 'RecordSignInFailure': {
        if (!isSignInMethod(command.method)) throw invalid(`unknown sign-in method ${String(command.method)}`);
        const { user_id, method, reason, now } = command;
        return [{ type: 'UserSignInFailed', data: { user_id, method, reason, ...circumstances(command), failed_at: now } }];
      }
      case 'RecordSessionsEnded':
        return [...new Set(command.session_refs)].map((session_ref) => ({
          type: 'UserSessionEnded' as const,
          data: { user_id: command.user_id, session_ref, reason: command.reason, ended_at: command.now },
        }));
      default: {
        const exhaustive: never = command;
        return exhaustive;
      }
    }
  },
};
