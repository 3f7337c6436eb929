import type { Decider, DomainEvent } from '../decider.js';
import { invalid, notFound } from '../errors.js';
import { addDays, isBefore } from '../time.js';
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

export type UserEvent =
  | DomainEvent<'UserRegistered', { user_id: string; email: string; first_name: string; last_name: string; registered_at: string }>
  | DomainEvent<'ApiKeyCreated', ApiKeyCreatedData>
  | DomainEvent<'ApiKeyRevoked', { user_id: string; api_key_id: string; revoked_at: string; revoked_by_api_key_id: string | null }>;

export type UserCommand =
  | { type: 'RegisterUser'; user_id: string; email: string; first_name: string; last_name: string; now: string }
  | ({ type: 'CreateApiKey'; expires_in_days: number; now: string } & Omit<ApiKeyCreatedData, 'created_at' | 'expires_at'>)
  | { type: 'RevokeApiKey'; user_id: string; api_key_id: string; revoked_by_api_key_id: string | null; now: string };

interface KeyState {
  kind: KeyKind;
  projectId: string | null;
  expiresAt: string;
  revoked: boolean;
}

export interface UserState {
  registered: boolean;
  keys: ReadonlyMap<string, KeyState>;
}

export const userStream = (userId: string) => `user-${userId}`;

function isActive(key: KeyState, now: string): boolean {
  return !key.revoked && isBefore(now, key.expiresAt);
}

export const userDecider: Decider<UserCommand, UserState, UserEvent> = {
  initialState: () => ({ registered: false, keys: new Map() }),

  evolve(state, event) {
    switch (event.type) {
      case 'UserRegistered':
        return { ...state, registered: true };
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
      default: {
        const exhaustive: never = command;
        return exhaustive;
      }
    }
  },
};
