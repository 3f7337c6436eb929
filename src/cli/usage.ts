import { parseArgs } from 'node:util';

/** A mistake in how a command was typed: the verb prints it with its usage and exits 2. */
export class CliUsageError extends Error {}

type FlagSpec = Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;

/** Named flags, strictly: an unknown flag is a usage error, not something silently ignored. */
export function parseFlags<T extends FlagSpec>(args: readonly string[], spec: T, allowPositionals = false) {
  try {
    return parseArgs({ args: [...args], options: spec, strict: true, allowPositionals });
  } catch (error) {
    throw new CliUsageError(error instanceof Error ? error.message : String(error));
  }
}
