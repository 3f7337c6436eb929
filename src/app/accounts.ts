import { createHash, randomBytes } from 'node:crypto';
import { type PasswordReason, userDecider, userStream } from '../domain/identity/user.js';
import { normalizeEmail } from '../domain/identity/email-claim.js';
import { type Actor, handleCommand, loadState } from './command-handler.js';
import { type CommandContext, nowIso } from './context.js';
import { findUserIdByEmail, registerUser } from './identity.js';
import { createProject } from './projects.js';

/**
 * What a sign-in checks a password against: read from the user's stream (the email's claim,
 * then the user's events), never from a read model, so that no read model holds a password hash.
 */
export async function credentialsOf(context: CommandContext, email: string): Promise<{ userId: string; passwordHash: string | null } | null> {
  const userId = await findUserIdByEmail(context, normalizeEmail(email));
  if (userId === null) return null;
  const { state } = await loadState(context.events, userStream(userId), userDecider);
  return state.registered ? { userId, passwordHash: state.passwordHash } : null;
}

/** The current password hash of a user (null: none set). */
export async function passwordHashOf(context: CommandContext, userId: string): Promise<string | null> {
  return (await loadState(context.events, userStream(userId), userDecider)).state.passwordHash;
}

export async function setPassword(
  context: CommandContext,
  input: { user_id: string; password_hash: string; reason: PasswordReason; current_hash?: string | null; reset_token_hash?: string | null },
  actor: Actor,
): Promise<{ position: number | null }> {
  const { position } = await handleCommand(
    context,
    userStream(input.user_id),
    userDecider,
    { type: 'SetPassword', user_id: input.user_id, password_hash: input.password_hash, reason: input.reason, current_hash: input.current_hash ?? null, reset_token_hash: input.reset_token_hash ?? null, now: nowIso(context) },
    actor,
  );
  return { position };
}

export async function renameUser(context: CommandContext, input: { user_id: string; first_name: string; last_name: string }, actor: Actor): Promise<{ position: number | null }> {
  const { position } = await handleCommand(context, userStream(input.user_id), userDecider, { type: 'RenameUser', ...input, now: nowIso(context) }, actor);
  return { position };
}

/**
 * The first account, from the setup link: the user, their password, and a first project they own,
 * as `vigil bootstrap` makes (no API key: they are signed in). Each step is a command of its own;
 * a crash between them leaves a user who can finish with a reset (`vigil users reset-password`).
 */
export async function createFirstAccount(
  context: CommandContext,
  input: { email: string; first_name: string; last_name: string; password_hash: string; project_name: string },
  actor: Actor,
): Promise<{ userId: string; projectId: string; position: number | null }> {
  const { user } = await registerUser(context, input, actor);
  await setPassword(context, { user_id: user.id, password_hash: input.password_hash, reason: 'setup' }, actor);
  const { projectId, position } = await createProject(context, { name: input.project_name, description: '', owner_id: user.id }, actor);
  return { userId: user.id, projectId, position };
}

/** SHA-256 of a link's token: its 256 random bits need no slow hash. */
export const hashLinkToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A reset link's token: `<user id>.<43 random base64url characters>`, so that it names whose account without a lookup. */
export function parseResetToken(token: string): { userId: string; secret: string } | null {
  const match = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})$/.exec(token);
  return match ? { userId: match[1]!, secret: token } : null;
}

/** Records a reset link for the user and answers its token (shown or mailed once, never stored). */
export async function requestPasswordReset(context: CommandContext, userId: string, via: 'email' | 'cli', actor: Actor): Promise<{ token: string; position: number | null }> {
  const token = `${userId}.${randomBytes(32).toString('base64url')}`;
  const { position } = await handleCommand(context, userStream(userId), userDecider, { type: 'RequestPasswordReset', user_id: userId, token_hash: hashLinkToken(token), via, now: nowIso(context) }, actor);
  return { token, position };
}

/** Whether a reset token is one the user's stream holds, unused and unexpired (the page asks before showing its form). */
export async function resetLinkIsLive(context: CommandContext, token: string): Promise<string | null> {
  const parsed = parseResetToken(token);
  if (!parsed) return null;
  const { state } = await loadState(context.events, userStream(parsed.userId), userDecider);
  const expiresAt = state.resetLinks.get(hashLinkToken(token));
  return expiresAt !== undefined && nowIso(context) < expiresAt ? parsed.userId : null;
}
