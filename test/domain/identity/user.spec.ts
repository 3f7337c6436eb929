import { type UserCommand, type UserEvent, userDecider } from '../../../src/domain/identity/user.js';
import { deciderSpec } from '../../support/decider.js';

const { given } = deciderSpec(userDecider);
const now = '2026-11-21T10:00:00.000Z';
const user_id = 'u-1';
const registered: UserEvent[] = [{ type: 'UserRegistered', data: { user_id, email: 'ada@example.com', first_name: 'Ada', last_name: 'L', registered_at: now } }];

function createKey(overrides: Partial<Extract<UserCommand, { type: 'CreateApiKey' }>> = {}): Extract<UserCommand, { type: 'CreateApiKey' }> {
  return {
    type: 'CreateApiKey', user_id, api_key_id: 'k-new', name: 'ci', key_hash: 'h', key_preview: 'vgl_live_ab',
    env: 'live', kind: 'ACCOUNT', project_id: null, scopes: ['read'], expires_in_days: 30, created_by_api_key_id: null, now, ...overrides,
  };
}

function keyCreated(api_key_id: string, kind: 'ACCOUNT' | 'PROJECT', project_id: string | null, expires_at = '2027-01-01T00:00:00.000Z'): UserEvent {
  return {
    type: 'ApiKeyCreated',
    data: { user_id, api_key_id, name: api_key_id, key_hash: api_key_id, key_preview: 'p', env: 'live', kind, project_id, scopes: [], created_at: now, expires_at, created_by_api_key_id: null },
  };
}

describe('User', () => {
  it('is registered once; registering again changes nothing', () => {
    given([]).when({ type: 'RegisterUser', user_id, email: 'ada@example.com', first_name: 'Ada', last_name: 'L', now }).then(registered);
    given(registered).when({ type: 'RegisterUser', user_id, email: 'ada@example.com', first_name: 'Ada', last_name: 'L', now }).then([]);
  });

  describe('creating API keys', () => {
    it('records the key with its expiry computed from now', () =>
      given(registered)
        .when(createKey({ expires_in_days: 365 }))
        .then([
          {
            type: 'ApiKeyCreated',
            data: {
              user_id, api_key_id: 'k-new', name: 'ci', key_hash: 'h', key_preview: 'vgl_live_ab', env: 'live', kind: 'ACCOUNT',
              project_id: null, scopes: ['read'], created_at: now, expires_at: '2027-11-21T10:00:00.000Z', created_by_api_key_id: null,
            },
          },
        ]));

    it('accepts 1 and 365 days and refuses 0 and 366', () => {
      for (const days of [0, 366, 1.5]) {
        given(registered).when(createKey({ expires_in_days: days })).thenRefuses('invalid', /from 1 to 365/);
      }
      for (const days of [1, 365]) given(registered).when(createKey({ expires_in_days: days })).thenEmits(['ApiKeyCreated']);
    });

    it('refuses a fourth active account-scoped key', () =>
      given([...registered, keyCreated('a', 'ACCOUNT', null), keyCreated('b', 'ACCOUNT', null), keyCreated('c', 'ACCOUNT', null)])
        .when(createKey())
        .thenRefuses('invalid', /at most 3 active account-scoped/));

    it('counts project-scoped keys per project, on a budget separate from account keys', () => {
      const three = [keyCreated('a', 'PROJECT', 'p-1'), keyCreated('b', 'PROJECT', 'p-1'), keyCreated('c', 'PROJECT', 'p-1')];
      given([...registered, ...three])
        .when(createKey({ kind: 'PROJECT', project_id: 'p-1' }))
        .thenRefuses('invalid', /at most 3 active project-scoped API keys per project/);
      given([...registered, ...three]).when(createKey({ kind: 'PROJECT', project_id: 'p-2', api_key_id: 'k' })).thenEmits(['ApiKeyCreated']);
      given([...registered, ...three]).when(createKey()).thenEmits(['ApiKeyCreated']);
    });

    it('does not count revoked or expired keys against the limit', () => {
      const events: UserEvent[] = [
        ...registered,
        keyCreated('a', 'ACCOUNT', null),
        keyCreated('b', 'ACCOUNT', null, '2026-11-21T09:59:59.999Z'),
        keyCreated('c', 'ACCOUNT', null),
        { type: 'ApiKeyRevoked', data: { user_id, api_key_id: 'c', revoked_at: now, revoked_by_api_key_id: null } },
        keyCreated('d', 'ACCOUNT', null),
      ];
      given(events).when(createKey()).thenEmits(['ApiKeyCreated']);
    });

    it('refuses a key for an unknown user', () => given([]).when(createKey()).thenRefuses('not_found', /user not found/));
  });

  describe('revoking API keys', () => {
    it('records the revocation once', () => {
      const events = [...registered, keyCreated('a', 'ACCOUNT', null)];
      given(events)
        .when({ type: 'RevokeApiKey', user_id, api_key_id: 'a', revoked_by_api_key_id: 'a', now })
        .then([{ type: 'ApiKeyRevoked', data: { user_id, api_key_id: 'a', revoked_at: now, revoked_by_api_key_id: 'a' } }]);
      given([...events, { type: 'ApiKeyRevoked', data: { user_id, api_key_id: 'a', revoked_at: now, revoked_by_api_key_id: null } }])
        .when({ type: 'RevokeApiKey', user_id, api_key_id: 'a', revoked_by_api_key_id: null, now })
        .then([]);
    });

    it('refuses an unknown key', () =>
      given(registered).when({ type: 'RevokeApiKey', user_id, api_key_id: 'zz', revoked_by_api_key_id: null, now }).thenRefuses('not_found', /API key not found/));
  });
});

describe('User passwords and name', () => {
  const { given: givenUser } = deciderSpec(userDecider);
  const user_id = 'u-1';
  const at = '2026-11-28T10:00:00.000Z';
  const registered: UserEvent[] = [{ type: 'UserRegistered', data: { user_id, email: 'ada@example.com', first_name: 'Ada', last_name: '', registered_at: at } }];
  const set = (password_hash: string, reason: string, reset_token_hash: string | null = null): UserEvent => ({ type: 'PasswordSet', data: { user_id, password_hash, reason, reset_token_hash, set_at: at } });
  const resetRequested = (token_hash: string, expires_at = '2026-11-28T11:00:00.000Z'): UserEvent => ({ type: 'PasswordResetRequested', data: { user_id, token_hash, via: 'cli', requested_at: at, expires_at } });
  const command = (reason: 'setup' | 'changed' | 'reset', extra: { current_hash?: string | null; reset_token_hash?: string | null; now?: string } = {}): UserCommand => ({
    type: 'SetPassword', user_id, password_hash: 'h-new', reason, current_hash: extra.current_hash ?? null, reset_token_hash: extra.reset_token_hash ?? null, now: extra.now ?? at,
  });

  it('sets a first password at setup, never over one the account has', () => {
    givenUser(registered).when(command('setup')).then([set('h-new', 'setup')]);
    givenUser([...registered, set('h-1', 'setup')]).when(command('setup')).thenRefuses('invalid', /already has a password/);
  });

  it('changes a password only from the hash the current password was checked against', () => {
    givenUser([...registered, set('h-1', 'setup')]).when(command('changed', { current_hash: 'h-1' })).then([set('h-new', 'changed')]);
    givenUser([...registered, set('h-1', 'setup'), set('h-2', 'changed')]).when(command('changed', { current_hash: 'h-1' })).thenRefuses('invalid', /changed meanwhile/);
    givenUser(registered).when(command('changed', { current_hash: null })).thenRefuses('invalid', /changed meanwhile/);
  });

  it('records a reset link that works for an hour', () => {
    givenUser(registered).when({ type: 'RequestPasswordReset', user_id, token_hash: 't-1', via: 'email', now: at }).then([
      { type: 'PasswordResetRequested', data: { user_id, token_hash: 't-1', via: 'email', requested_at: at, expires_at: '2026-11-28T11:00:00.000Z' } },
    ]);
    givenUser([]).when({ type: 'RequestPasswordReset', user_id, token_hash: 't-1', via: 'cli', now: at }).thenRefuses('not_found', /user not found/);
  });

  it('resets through a live link once: not an unknown, expired or used one', () => {
    givenUser([...registered, resetRequested('t-1')]).when(command('reset', { reset_token_hash: 't-1' })).then([set('h-new', 'reset', 't-1')]);
    givenUser([...registered, resetRequested('t-1')]).when(command('reset', { reset_token_hash: 't-2' })).thenRefuses('invalid', /expired or has been used/);
    givenUser([...registered, resetRequested('t-1')]).when(command('reset', { reset_token_hash: 't-1', now: '2026-11-28T11:00:00.000Z' })).thenRefuses('invalid', /expired or has been used/);
    givenUser([...registered, resetRequested('t-1'), set('h-2', 'reset', 't-1')]).when(command('reset', { reset_token_hash: 't-1' })).thenRefuses('invalid', /expired or has been used/);
    // Any password set ends every link asked for before it.
    givenUser([...registered, resetRequested('t-1'), set('h-2', 'changed')]).when(command('reset', { reset_token_hash: 't-1' })).thenRefuses('invalid', /expired or has been used/);
  });

  it('renames, trimmed; the same name changes nothing; an empty one is refused', () => {
    givenUser(registered).when({ type: 'RenameUser', user_id, first_name: ' Ada Lovelace ', last_name: '', now: at }).then([
      { type: 'UserRenamed', data: { user_id, first_name: 'Ada Lovelace', last_name: '', renamed_at: at } },
    ]);
    givenUser(registered).when({ type: 'RenameUser', user_id, first_name: 'Ada', last_name: '', now: at }).then([]);
    givenUser(registered).when({ type: 'RenameUser', user_id, first_name: ' ', last_name: '', now: at }).thenRefuses('invalid', /must not be empty/);
  });
});
