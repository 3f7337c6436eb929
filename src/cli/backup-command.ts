import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BackupRefused, copySqliteDatabase } from '../eventstore/sqlite-backup.js';
import { ConfigError, loadConfig } from '../main/config.js';
import { embeddedDatabasePath } from '../main/stores.js';
import { describeDatabaseFile } from './store-description.js';
import { CliUsageError, parseFlags } from './usage.js';

export interface BackupCommandIo {
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
  stderr: NodeJS.WritableStream;
  /** What taken_at is read from; the wall clock by default. */
  clock?: () => Date;
}

export const BACKUP_USAGE = `usage:
  vigil backup FILE [--force]

  Copies the embedded store (VIGIL_DATA_DIR/vigil.db) to FILE while the server runs: a consistent
  copy that appears under FILE only once it is whole, and that \`vigil verify --file FILE\` checks.
  An existing FILE is kept unless --force. Prints {backup, source, taken_at, read_ms, bytes,
  position, head_chain}: every commit made before taken_at is in the copy.
  With EventStoreDB (VIGIL_EVENTSTORE_URL), back up with its own tools: docs/operations.md#backups.`;

const DOCS = 'docs/operations.md#backups';

/** `vigil backup FILE [--force]`: an online copy of the embedded store (src/eventstore/sqlite-backup.ts). */
export async function runBackup(args: readonly string[], io: BackupCommandIo): Promise<number> {
  try {
    const { values, positionals } = parseFlags(args, { force: { type: 'boolean' } }, true);
    const [target, ...extra] = positionals;
    if (target === undefined || target === '') throw new CliUsageError('backup needs the FILE to write the copy to');
    if (extra.length > 0) throw new CliUsageError(`backup takes one FILE, not ${positionals.join(' ')}`);
    const config = loadConfig(io.env);
    if (config.eventStoreUrl) {
      io.stderr.write(
        'vigil: backup copies the embedded store, and this Vigil keeps its events in EventStoreDB (VIGIL_EVENTSTORE_URL): ' +
          `back EventStoreDB up with its own tools${config.mongoUrl ? ' (MongoDB holds only read models, which vigil projections rebuild makes again)' : ''}, ` +
          `and keep VIGIL_SECRET_KEY with it. Nothing was written. See ${DOCS}\n`,
      );
      return 1;
    }
    const source = embeddedDatabasePath(config);
    if (!existsSync(source)) {
      throw new BackupRefused(`no database at ${describeDatabaseFile(io.env, source)}; nothing was written.\nvigil: set VIGIL_DATA_DIR to the data dir of your Vigil server`);
    }
    const copy = copyOrSay(source, target, values.force === true, io.clock);
    io.stdout(JSON.stringify({ backup: copy.file, source, taken_at: copy.taken_at, read_ms: copy.read_ms, bytes: copy.bytes, position: copy.position, head_chain: copy.head_chain }));
    if (config.mongoUrl) io.stderr.write('vigil: the read models are in MongoDB, not in the copy; after a restore, vigil projections rebuild makes them again\n');
    if (config.secretKey) io.stderr.write('vigil: the copy needs VIGIL_SECRET_KEY to open its channel configs: keep the key with your backups\n');
    else if (existsSync(join(config.dataDir, 'secret.key'))) {
      io.stderr.write(`vigil: the copy does not hold the secret key ${join(config.dataDir, 'secret.key')}, without which its channel configs cannot be opened: keep a copy of it with your backups\n`);
    }
    return 0;
  } catch (error) {
    if (error instanceof CliUsageError) {
      io.stderr.write(`vigil: ${error.message}\n${BACKUP_USAGE}\n`);
      return 2;
    }
    if (error instanceof BackupRefused || error instanceof ConfigError) {
      io.stderr.write(`vigil: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

/** A copy that failed part-way (a full disk, a directory it may not write to) says why, and that nothing was written. */
function copyOrSay(source: string, target: string, overwrite: boolean, clock: (() => Date) | undefined) {
  try {
    return copySqliteDatabase(source, target, { overwrite, ...(clock ? { clock } : {}) });
  } catch (error) {
    if (error instanceof BackupRefused || !(error instanceof Error)) throw error;
    throw new BackupRefused(`could not back up ${source} to ${resolve(target)}: ${error.message}; nothing was written`);
  }
}

/**
 * Runs `work` on a data dir holding a consistent copy of `file`, removed afterwards: `vigil verify
 * --file` checks a backup this way, as verifying opens the file for writing (it records the check
 * in the log) and a backup should stay as it was written.
 */
export async function withScratchCopy<T>(file: string, work: (dataDir: string) => Promise<T>): Promise<T> {
  const path = resolve(file);
  if (!existsSync(path)) throw new BackupRefused(`no database at ${path}; nothing was checked`);
  const scratch = mkdtempSync(join(tmpdir(), 'vigil-verify-'));
  try {
    try {
      copySqliteDatabase(path, join(scratch, 'vigil.db'), { overwrite: false });
    } catch (error) {
      if (error instanceof BackupRefused || !(error instanceof Error)) throw error;
      throw new BackupRefused(`could not read ${path} as a Vigil database: ${error.message}`);
    }
    return await work(scratch);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
