import type { Decider, DomainEvent } from '../decider.js';
import { invalid, notFound } from '../errors.js';
import { addDays, addMilliseconds, isBefore } from '../time.js';
import type { KeyKind, Scope } from '../access/scopes.js';

export const MAX_ACTIVE_KEYS = 3;
export const KEY_LIFETIME_DAYS = { min: 1, max: 365 } as const;

export interface ApiKeyCreatedData {
  user_id: string;
  api_key_id: string;
  name: string;
  /** SHA-256 of the key: the key itself is shown once and never stored. */
  key_hash: string;
  /** The key's first characters, so a person can tell their keys apart. */
  key_preview: string;
  env: 'live' | 'test';
  kind: KeyKind;
  project_id: string | null;
  scopes: Scope[];
  created_at: string;
  expires_at: string;
  created_by_api_key_id: string | null;
}

/** Why a password was set: the first account's setup, a sign-up by invitation, its owner changing it, a reset link. */
export type PasswordReason = 'setup' | 'invitation' | 'changed' | 'reset';

/** How long a password reset link works. */
export const RESET_LINK_LIFETIME_MS = 3_600_000;

export type UserEvent =
  | DomainEvent<'UserRegistered', { user_id: string; email: string; first_name: string; last_name: string; registered_at: string }>
  | DomainEvent<'ApiKeyCreated', ApiKeyCreatedData>
  | DomainEvent<'ApiKeyRevoked', { user_id: string; api_key_id: string; revoked_at: string; revoked_by_api_key_id: string | null }>
  | DomainEvent<'UserRenamed', { user_id: string; first_name: string; last_name: string; renamed_at: string }>
  /** `password_hash`: a scrypt PHC string (src/app/passwords.ts), never the password. `reset_token_hash`: the link it was set through. */
  | DomainEvent<'PasswordSet', { user_id: string; password_hash: string; reason: string; reset_token_hash: string | null; set_at: string }>
  /** `token_hash`: SHA-256 of the link's 256-bit token; the token itself is only in the link. */
  | DomainEvent<'PasswordResetRequested', { user_id: string; token_hash: string; via: string; requested_at: string; expires_at: string }>;

export type UserCommand =
  | { type: 'RegisterUser'; user_id: string; email: string; first_name: string; last_name: string; now: string }
  | ({ type: 'CreateApiKey'; expires_in_days: number; now: string } & Omit<ApiKeyCreatedData, 'created_at' | 'expires_at'>)
  | { type: 'RevokeApiKey'; user_id: string; api_key_id: string; revoked_by_api_key_id: string | null; now: string }
  | { type: 'RenameUser'; user_id: string; first_name: string; last_name: string; now: string }
  /**
   * `current_hash`: for `changed`, the hash the current password was checked against (so a change
   * made meanwhile elsewhere refuses this one); for `reset`, `reset_token_hash` names the link.
   */
  | { type: 'SetPassword'; user_id: string; password_hash: string; reason: PasswordReason; current_hash: string | null; reset_token_hash: string | null; now: string }
  | { type: 'RequestPasswordReset'; user_id: string; token_hash: string; via: 'email' | 'cli'; now: string };

interface KeyState {
  kind: KeyKind;
  projectId: string | null;
  expiresAt: string;
  revoked: boolean;
}

export interface UserState {
  registered: boolean;
  keys: ReadonlyMap<string, KeyState>;
  name: { first: string; last: string };
  passwordHash: string | null;
  /** Reset links not yet used, by token hash: their expiry. Any password set ends them all. */
  resetLinks: ReadonlyMap<string, string>;
}

export const userStream = (userId: string) => `user-${userId}`;

function isActive(key: KeyState, now: string): boolean {
  return !key.revoked && isBefore(now, key.expiresAt);
}

export const userDecider: Decider<UserCommand, UserState, UserEvent> = {
  initialState: () => ({ registered: false, keys: new Map(), name: { first: '', last: '' }, passwordHash: null, resetLinks: new Map() }),

  evolve(state, event) {
    switch (event.type) {
      case 'UserRegistered':
        return { ...state, registered: true, name: { first: event.data.first_name, last: event.data.last_name } };
      case 'UserRenamed':
        return { ...state, name: { first: event.data.first_name, last: event.data.last_name } };
      case 'PasswordSet':
        return { ...state, passwordHash: event.data.password_hash, resetLinks: new Map() };
      case 'PasswordResetRequested': {
        const resetLinks = new Map(state.resetLinks);
        resetLinks.set(event.data.token_hash, event.data.expires_at);
        return { ...state, resetLinks };
      }
      case 'ApiKeyCreated': {
        const keys = new Map(state.keys);
        keys.set(event.data.api_key_id, { kind: event.data.kind, projectId: event.data.project_id, expiresAt: event.data.expires_at, revoked: false });
        return { ...state, keys };
      }
      case 'ApiKeyRevoked': {
        const key = state.keys.get(event.data.api_key_id);
        if (!key) return state;
        const keys = new Map(state.keys);
        keys.set(event.data.api_key_id, { ...key, revoked: true });
        return { ...state, keys };
      }
      default: {
        const exhaustive: never = event;
        return exhaustive;
      }
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'RegisterUser': {
        if (state.registered) return [];
        const { user_id, email, first_name, last_name, now } = command;
        return [{ type: 'UserRegistered', data: { user_id, email, first_name, last_name, registered_at: now } }];
      }
      case 'CreateApiKey': {
        if (!state.registered) throw notFound('user not found');
        if (state.keys.has(command.api_key_id)) return [];
        const days = command.expires_in_days;
        if (!Number.isInteger(days) || days < KEY_LIFETIME_DAYS.min || days > KEY_LIFETIME_DAYS.max) {
          throw invalid(`expires_in_days must be a whole number of days from ${KEY_LIFETIME_DAYS.min} to ${KEY_LIFETIME_DAYS.max}`);
        }
        const sameBudget = [...state.keys.values()].filter(
          (key) => isActive(key, command.now) && key.kind === command.kind && (command.kind === 'ACCOUNT' || key.projectId === command.project_id),
        );
        if (sameBudget.length >= MAX_ACTIVE_KEYS) {
          throw invalid(
            command.kind === 'ACCOUNT'
              ? `a user can hold at most ${MAX_ACTIVE_KEYS} active account-scoped API keys; revoke one first`
              : `a user can hold at most ${MAX_ACTIVE_KEYS} active project-scoped API keys per project; revoke one first`,
          );
        }
        return [
          {
            type: 'ApiKeyCreated',
            data: {
              user_id: command.user_id,
              api_key_id: command.api_key_id,
              name: command.name,
              key_hash: command.key_hash,
              key_preview: command.key_preview,
              env: command.env,
              kind: command.kind,
              project_id: command.kind === 'PROJECT' ? command.project_id : null,
              scopes: command.scopes,
              created_at: command.now,
              expires_at: addDays(command.now, days),
              created_by_api_key_id: command.created_by_api_key_id,
            },
          },
        ];
      }
      case 'RevokeApiKey': {
        const key = state.keys.get(command.api_key_id);
        if (!key) throw notFound('API key not found');
        if (key.revoked) return [];
        return [
          {
            type: 'ApiKeyRevoked',
            data: { user_id: command.user_id, api_key_id: command.api_key_id, revoked_at: command.now, revoked_by_api_key_id: command.revoked_by_api_key_id },
          },
        ];
      }
      case 'RenameUser': {
        if (!state.registered) throw notFound('user not found');
        const first_name = command.first_name.trim();
        const last_name = command.last_name.trim();
        if (first_name === '' && last_name === '') throw invalid('name must not be empty');
        if (first_name === state.name.first && last_name === state.name.last) return [];
        return [{ type: 'UserRenamed', data: { user_id: command.user_id, first_name, last_name, renamed_at: command.now } }];
      }
      case 'SetPassword':
        return setPassword(state, command);
      case 'RequestPasswordReset': {
        if (!state.registered) throw notFound('user not found');
        const expires_at = addMilliseconds(command.now, RESET_LINK_LIFETIME_MS);
        return [{ type: 'PasswordResetRequested', data: { user_id: command.user_id, token_hash: command.token_hash, via: command.via, requested_at: command.now, expires_at } }];
      }
      default: {
        const exhaustive: never = command;
        return exhaustive;
      }
    }
  },
};

function setPassword(state: UserState, command: Extract<UserCommand, { type: 'SetPassword' }>): UserEvent[] {
  if (!state.registered) throw notFound('user not found');
  switch (command.reason) {
    case 'setup':
    case 'invitation':
      // A first password, set as the account is made: never over one its owner already has.
      if (state.passwordHash !== null) throw invalid('this account already has a password');
      break;
    case 'changed':
      if (state.passwordHash === null || command.current_hash !== state.passwordHash) throw invalid('the current password has changed meanwhile; try again');
      break;
    case 'reset': {
      const expiresAt = command.reset_token_hash === null ? undefined : state.resetLinks.get(command.reset_token_hash);
      if (expiresAt === undefined || !isBefore(command.now, expiresAt)) throw invalid('this reset link has expired or has been used');
      break;
    }
    default: {
      const exhaustive: never = command.reason;
      return exhaustive;
    }
  }
  return [{
    type: 'PasswordSet',
    data: { user_id: command.user_id, password_hash: command.password_hash, reason: command.reason, reset_token_hash: command.reason === 'reset' ? command.reset_token_hash : null, set_at: command.now },
  }];
}
