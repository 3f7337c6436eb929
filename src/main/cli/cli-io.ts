import type { Actor } from '../../app/command-handler.js';

export interface CliIo {
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
  stderr: NodeJS.WritableStream;
  /** The time commands are stamped with (key expiry counts from it); the wall clock by default. */
  clock?: () => Date;
}

/** A command typed wrong: printed with the usage, exit 2. */
export class UsageError extends Error {}

/** A failure the operator can act on from its message alone: printed without a stack, exit 1. */
export class CliFailure extends Error {}

/** An error of the file system (a data dir that is a file, a replay file that is not there). */
export function isFileError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).path === 'string' && typeof (error as NodeJS.ErrnoException).code === 'string';
}

export const CLI_ACTOR: Actor = { kind: 'cli', user_id: null, api_key_id: null, request_id: null };
