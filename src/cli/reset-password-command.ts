import { parseArgs } from 'node:util';
import { requestPasswordReset } from '../app/accounts.js';
import type { Actor } from '../app/command-handler.js';
import type { CommandContext } from '../app/context.js';
import { findUserIdByEmail } from '../app/identity.js';
import { normalizeEmail } from '../domain/identity/email-claim.js';
import { DEFAULT_VIGIL_URL } from './ping-target.js';
import { visible } from './visible.js';

export const RESET_PASSWORD_USAGE = 'vigil users reset-password EMAIL [--url URL]';

/**
 * `vigil users reset-password EMAIL`: records a one-time link (an hour, works once) to set a new
 * password, and prints it for the operator to hand over. The link's origin is --url, else
 * VIGIL_PUBLIC_URL, else VIGIL_URL. Using it ends every session of the account.
 */
export async function runResetPassword(
  args: readonly string[],
  io: { env: NodeJS.ProcessEnv; stdout: (text: string) => void; stderr: NodeJS.WritableStream },
  withContext: <T>(work: (context: CommandContext) => Promise<T>) => Promise<T>,
  actor: Actor,
  usage: (message: string) => Error,
  failure: (message: string) => Error,
): Promise<number> {
  let parsed: { values: { url?: string | undefined }; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...args], options: { url: { type: 'string' } }, strict: true, allowPositionals: true });
  } catch (error) {
    throw usage(error instanceof Error ? error.message : String(error));
  }
  const [address, ...extra] = parsed.positionals;
  if (address === undefined || extra.length > 0 || !/^[^\s@]+@[^\s@]+$/.test(address)) throw usage(`usage: ${RESET_PASSWORD_USAGE}`);
  const base = (parsed.values.url || io.env['VIGIL_PUBLIC_URL'] || io.env['VIGIL_URL'] || DEFAULT_VIGIL_URL).replace(/\/+$/, '');
  return withContext(async (context) => {
    const userId = await findUserIdByEmail(context, normalizeEmail(address));
    if (userId === null) throw failure(`no user has the email ${visible(normalizeEmail(address))}`);
    const { token } = await requestPasswordReset(context, userId, 'cli', actor);
    io.stdout(`${base}/reset-password?token=${token}`);
    io.stderr.write(`vigil: a password reset link for ${visible(normalizeEmail(address))}; it works once, for an hour, and ends every session of the account.\n`);
    return 0;
  });
}
