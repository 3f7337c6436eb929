import type { KeyKind, Scope } from '../domain/access/scopes.js';
import { invalid } from '../domain/errors.js';
import { emailClaimDecider, emailClaimStream, normalizeEmail } from '../domain/identity/email-claim.js';
import { type UserEvent, userDecider, userStream } from '../domain/identity/user.js';
import { type Actor, handleCommand, loadState } from './command-handler.js';
import { type CommandContext, nowIso } from './context.js';
import { apiKeyPreview, hashApiKey, newApiKey } from './random-tokens.js';

export interface RegisteredUser {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
}

/**
 * Claims the address first, then registers the user under the claimed id. If a crash falls
 * between the two, registering the same address again finds the claim and completes it.
 */
export async function registerUser(
  context: CommandContext,
  input: { email: string; first_name: string; last_name: string },
  actor: Actor,
): Promise<{ user: RegisteredUser; position: number | null }> {
  const email = normalizeEmail(input.email);
  const existing = await findUserIdByEmail(context, email);
  const userId = existing ?? context.newId();
  if (existing) {
    const { state } = await loadState(context.events, userStream(userId), userDecider);
    if (state.registered) throw invalid(`a user with email ${email} already exists`);
  } else {
    await handleCommand(context, emailClaimStream(email), emailClaimDecider, { type: 'ClaimEmail', email, user_id: userId, now: nowIso(context) }, actor);
  }
  const outcome = await handleCommand(
    context,
    userStream(userId),
    userDecider,
    { type: 'RegisterUser', user_id: userId, email, first_name: input.first_name, last_name: input.last_name, now: nowIso(context) },
    actor,
  );
  return { user: { id: userId, email, first_name: input.first_name, last_name: input.last_name }, position: outcome.position };
}

/** Command-side lookup through the claim stream, so the CLI works without read models. */
export async function findUserIdByEmail(context: CommandContext, email: string): Promise<string | null> {
  const { state } = await loadState(context.events, emailClaimStream(email), emailClaimDecider);
  return state.userId;
}

export interface IssuedApiKey {
  key: string;
  event: Extract<UserEvent, { type: 'ApiKeyCreated' }>['data'];
  position: number | null;
}

export async function issueApiKey(
  context: CommandContext,
  input: {
    user_id: string;
    name: string;
    expires_in_days: number;
    kind: KeyKind;
    project_id: string | null;
    scopes: Scope[];
    env: 'live' | 'test';
    created_by_api_key_id: string | null;
  },
  actor: Actor,
): Promise<IssuedApiKey> {
  const key = newApiKey(context.apiKeyPrefix, input.env);
  const outcome = await handleCommand(
    context,
    userStream(input.user_id),
    userDecider,
    {
      ...input,
      type: 'CreateApiKey',
      api_key_id: context.newId(),
      key_hash: hashApiKey(key),
      key_preview: apiKeyPreview(key),
      now: nowIso(context),
      scopes: input.kind === 'PROJECT' ? ['read', 'manage_monitors'] : input.scopes,
    },
    actor,
  );
  const created = outcome.events.find((event) => event.type === 'ApiKeyCreated');
  if (!created || created.type !== 'ApiKeyCreated') throw new Error('API key was not created');
  return { key, event: created.data, position: outcome.position };
}

export async function revokeApiKey(
  context: CommandContext,
  input: { user_id: string; api_key_id: string; revoked_by_api_key_id: string | null },
  actor: Actor,
): Promise<{ position: number | null }> {
  const outcome = await handleCommand(
    context,
    userStream(input.user_id),
    userDecider,
    { ...input, type: 'RevokeApiKey', now: nowIso(context) },
    actor,
  );
  return { position: outcome.position };
}
