import Database from 'better-sqlite3';
import { chmodSync, closeSync, fsyncSync, linkSync, openSync, readdirSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

/** What a finished copy holds: its size and the head of its log, to compare with a later `vigil verify`. */
export interface SqliteCopy {
  file: string;
  /** Every commit made before this moment is in the copy. */
  taken_at: string;
  /** How long the live file was read: its writers went on, and its WAL could not start over meanwhile. */
  read_ms: number;
  bytes: number;
  /** The copy's last log position (0 for an empty log). */
  position: number;
  /** The running hash at that position, as `vigil verify` prints it as `head_chain`. */
  head_chain: string | null;
}

/** The copy was not made, for a reason the operator can act on from the message alone. */
export class BackupRefused extends Error {}

/**
 * How long the copy's read waits for a lock: in WAL mode a reader waits only while another
 * connection recovers the WAL or starts it over, which is brief.
 */
const BUSY_TIMEOUT_MS = 5000;

/**
 * A consistent copy of a live SQLite file, written atomically under `target`.
 *
 * `VACUUM INTO` rather than the online backup API: the backup API copies a few pages at a time and
 * starts over whenever another process commits between two steps, which the server does several
 * times a second under pings, so a large file might never finish; copying every page in one step
 * instead is one long read as well, that also copies free pages. `VACUUM INTO` reads the whole file
 * in one read transaction, a snapshot that no commit restarts, and writes a compact file in
 * rollback-journal mode that needs no `-wal` beside it. In WAL mode that read takes no lock the
 * writers need: they go on committing and the WAL grows until the read ends.
 *
 * SQLite neither syncs a `VACUUM INTO` file nor makes it appear whole, so the copy is written to a
 * temporary name in the target's directory, checked, fsynced, and then linked or renamed to
 * `target`, and the directory fsynced: a kill at any moment leaves no file under `target`, or a
 * whole one. A temporary file a killed copy left behind is removed by the next copy to that target.
 */
export function copySqliteDatabase(source: string, target: string, options: { overwrite: boolean; clock?: () => Date }): SqliteCopy {
  const file = resolve(target);
  const directory = dirname(file);
  refuseTarget(source, file, options.overwrite);
  removeAbandonedCopies(directory, basename(file));
  const partial = partialName(directory, basename(file), process.pid);
  removePartial(partial);
  try {
    // Read-write though it writes nothing to the source: a read-only connection that finds no -wal
    // and -shm (no server running) creates them and leaves them behind, owned by whoever ran the
    // backup, where they can keep the server from opening the file. The last connection to close
    // removes them.
    const db = new Database(source, { fileMustExist: true });
    let takenAt: Date;
    let readMs: number;
    try {
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      takenAt = (options.clock ?? (() => new Date()))();
      const started = performance.now();
      db.prepare('VACUUM INTO ?').run(partial);
      readMs = Math.round(performance.now() - started);
    } finally {
      db.close();
    }
    const head = checkedHead(partial);
    // The copy holds what the live file does (key hashes, ping payloads): it gets the live file's permissions.
    chmodSync(partial, statSync(source).mode & 0o777);
    syncFile(partial);
    publish(partial, file, options.overwrite);
    syncFile(directory);
    return { file, taken_at: takenAt.toISOString(), read_ms: readMs, bytes: statSync(file).size, ...head };
  } catch (error) {
    removePartial(partial);
    throw error;
  }
}

function refuseTarget(source: string, file: string, overwrite: boolean): void {
  const existing = statOrNull(file);
  if (existing?.isDirectory()) throw new BackupRefused(`${file} is a directory; give the backup's file name`);
  if (existing && sameFile(existing, source)) throw new BackupRefused(`${file} is the database being backed up; give another file`);
  if (existing && !overwrite) throw new BackupRefused(`${file} already exists; nothing was written. Give another name, or --force to replace it`);
  if (!statOrNull(dirname(file))?.isDirectory()) throw new BackupRefused(`the directory ${dirname(file)} does not exist; nothing was written`);
}

function sameFile(target: { dev: number; ino: number }, source: string): boolean {
  const live = statOrNull(source);
  return live !== null && live.dev === target.dev && live.ino === target.ino;
}

function statOrNull(path: string) {
  try {
    return statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** A dot file beside the target, named after the process writing it, so that its owner can be told alive or gone. */
function partialName(directory: string, name: string, pid: number): string {
  return join(directory, `.${name}.${pid}.partial`);
}

/** The temporary files of copies to this target whose process is gone (killed mid-copy), with their journals. */
function removeAbandonedCopies(directory: string, name: string): void {
  const prefix = `.${name}.`;
  for (const entry of readdirSync(directory)) {
    if (!entry.startsWith(prefix)) continue;
    const found = /^(\d+)\.partial(-journal)?$/.exec(entry.slice(prefix.length));
    const pid = Number(found?.[1]);
    if (!found || pid <= 0 || (pid !== process.pid && isAlive(pid))) continue;
    unlinkIfPresent(join(directory, entry));
  }
}

/** SQLite writes the copy with a rollback journal beside it, which a kill leaves behind too. */
function removePartial(partial: string): void {
  unlinkIfPresent(`${partial}-journal`);
  unlinkIfPresent(partial);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: a process of another user has that pid now; it is alive, and the file is left alone.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** The copy read back before it takes the target's name: a structural check, and the head of its log. */
function checkedHead(partial: string): Pick<SqliteCopy, 'position' | 'head_chain'> {
  const copy = new Database(partial, { readonly: true, fileMustExist: true });
  try {
    const check = copy.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new BackupRefused(`the copy failed SQLite's quick_check (${String(check)}); nothing was written`);
    const hasLog = copy.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'es_events'").get() !== undefined;
    const head = hasLog ? copy.prepare<[], { position: number; chain: string }>('SELECT position, chain FROM es_events ORDER BY position DESC LIMIT 1').get() : undefined;
    return { position: head?.position ?? 0, head_chain: head?.chain ?? null };
  } finally {
    copy.close();
  }
}

function syncFile(path: string): void {
  const descriptor = openSync(path, 'r');
  try {
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}

/**
 * Without --force, a hard link gives the copy its name only if nothing took that name since it was
 * checked; a file system without hard links gets the check and a rename instead.
 */
function publish(partial: string, file: string, overwrite: boolean): void {
  if (overwrite) {
    renameSync(partial, file);
    return;
  }
  try {
    linkSync(partial, file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new BackupRefused(`${file} appeared while the copy was made; nothing was written. Give another name, or --force to replace it`);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw error;
    if (statOrNull(file)) throw new BackupRefused(`${file} appeared while the copy was made; nothing was written`);
    renameSync(partial, file);
    return;
  }
  unlinkSync(partial);
}

function unlinkIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
