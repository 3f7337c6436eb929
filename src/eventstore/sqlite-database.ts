import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export type SqliteDatabase = Database.Database;

const WAL_SIZE_LIMIT_BYTES = 64 * 2 ** 20;

/**
 * Opens the one SQLite file that holds both the event log and the read models in embedded mode.
 * WAL lets readers run beside the single writer; `synchronous = FULL` makes every acknowledged
 * commit survive a crash of the process and of the machine.
 */
export function openSqliteDatabase(path: string, options: { durability?: 'full' | 'normal'; autocheckpoint?: boolean } = {}): SqliteDatabase {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  // Read models are rebuilt from the log, so their connection may skip the fsync on each commit:
  // after a power loss their rows and checkpoint roll back together and the projector replays.
  db.pragma(options.durability === 'normal' ? 'synchronous = NORMAL' : 'synchronous = FULL');
  // Other processes (the CLI, extra roles) write to the same file: wait for their locks.
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  // Off where a WalCheckpointer thread copies the WAL into the file instead (wal-checkpointer.ts).
  if (options.autocheckpoint === false) db.pragma('wal_autocheckpoint = 0');
  // A WAL that grew (a long reader held checkpoints back) is cut back to this when it starts over.
  db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  return db;
}
