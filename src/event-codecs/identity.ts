import * as t from 'io-ts';
import { SCOPES } from '../domain/access/scopes.js';
import { NullableString, oneOf } from './fields.js';

export const identityEventCodecs = {
  UserRegistered: t.type({ user_id: t.string, email: t.string, first_name: t.string, last_name: t.string, registered_at: t.string }),
  ApiKeyCreated: t.type({
    user_id: t.string,
    api_key_id: t.string,
    name: t.string,
    key_hash: t.string,
    key_preview: t.string,
    env: oneOf(['live', 'test'], 'KeyEnv'),
    kind: oneOf(['ACCOUNT', 'PROJECT'], 'KeyKind'),
    project_id: NullableString,
    scopes: t.array(oneOf(SCOPES, 'Scope')),
    created_at: t.string,
    expires_at: t.string,
    created_by_api_key_id: NullableString,
  }),
  ApiKeyRevoked: t.type({ user_id: t.string, api_key_id: t.string, revoked_at: t.string, revoked_by_api_key_id: NullableString }),
  ApiKeyUsed: t.type({ user_id: t.string, api_key_id: t.string, at: t.string }),
  UserRenamed: t.type({ user_id: t.string, first_name: t.string, last_name: t.string, renamed_at: t.string }),
  PasswordSet: t.type({ user_id: t.string, password_hash: t.string, reason: t.string, reset_token_hash: NullableString, set_at: t.string }),
  PasswordResetRequested: t.type({ user_id: t.string, token_hash: t.string, via: t.string, requested_at: t.string, expires_at: t.string }),
  EmailClaimed: t.type({ email: t.string, user_id: t.string, claimed_at: t.string }),
  UserSignedIn: t.type({
    user_id: t.string,
    session_ref: t.string,
    method: t.string,
    second_factor: NullableString,
    api_key_id: NullableString,
    client_address: NullableString,
    user_agent: NullableString,
    signed_in_at: t.string,
  }),
  UserSignInFailed: t.type({ user_id: NullableString, method: t.string, reason: t.string, client_address: NullableString, user_agent: NullableString, failed_at: t.string }),
  UserSessionEnded: t.type({ user_id: t.string, session_ref: t.string, reason: t.string, ended_at: t.string }),
};
