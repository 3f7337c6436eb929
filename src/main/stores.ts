import { join } from 'node:path';
import type { Appender } from '../app/appender.js';
import { atomicAppender } from '../app/atomic-appender.js';
import { sequentialAppender } from '../app/sequential-appender.js';
import type { LeaseStore } from '../coordination/leases.js';
import { MongoLeaseStore } from '../coordination/mongo-lease-store.js';
import { SqliteLeaseStore } from '../coordination/sqlite-lease-store.js';
import type { EventStore } from '../eventstore/event-store.js';
import { EsdbEventStore } from '../eventstore/esdb-event-store.js';
import { type SqliteDatabase, openSqliteDatabase } from '../eventstore/sqlite-database.js';
import { SqliteEventStore } from '../eventstore/sqlite-event-store.js';
import { WalCheckpointer } from '../eventstore/wal-checkpointer.js';
import { type ThreadLinks, newThreadLinks } from './thread-links.js';
import { type ChallengeStore, MongoChallengeStore, SqliteChallengeStore } from '../web/challenge-store.js';
import { MongoSessionStore, type SessionStore, SqliteSessionStore } from '../web/session-store.js';
import { MongoReadModelStore } from '../readstore/mongo-read-model-store.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';
import { SqliteReadModelStore } from '../readstore/sqlite-read-model-store.js';
import type { VigilConfig } from './config.js';

/**
 * Who copies the embedded file's WAL back into it: SQLite, inside whichever commit takes the WAL
 * past 1,000 pages (`on-commit`, its default; for the CLI and tests); a WalCheckpointer thread this
 * process starts (`own-thread`, the server); or one another thread of the process started
 * (`by-another-thread`, the server's projector thread).
 */
export type WalCheckpoints = 'on-commit' | 'own-thread' | 'by-another-thread';

export interface Stores {
  events: EventStore;
  /**
   * How the command side appends to `events`, chosen here once (src/app/appender.ts): atomic on
   * the embedded store, which appends to several streams as one; sequential on EventStoreDB.
   */
  appender: Appender;
  readModels: ReadModelStore;
  /** Leases for role instances that share work; kept beside the read models they work from. */
  leases: LeaseStore;
  /** The web console's sign-in sessions; kept beside the read models, outside any projection. */
  sessions: SessionStore;
  /** The WebAuthn challenges given out and not yet answered; beside the sessions. */
  challenges: ChallengeStore;
  /** Where the embedded file lives, when one is used. */
  sqlitePath: string | null;
  /** The event store's connection to the embedded file, for tools that read it directly (verify). */
  sqliteDb: SqliteDatabase | null;
  close: () => Promise<void>;
}

/** The embedded file under the data dir, which the CLI names in its errors before it opens it. */
export function embeddedDatabasePath(config: VigilConfig): string {
  return join(config.dataDir, 'vigil.db');
}

/**
 * Embedded by default: events and read models in one SQLite file under the data dir.
 * VIGIL_EVENTSTORE_URL and VIGIL_MONGODB_URL switch either side to its production server.
 */
export async function openStores(config: VigilConfig, options: { clock?: () => Date; threads?: ThreadLinks; walCheckpoints?: WalCheckpoints } = {}): Promise<Stores> {
  const needsSqlite = !config.eventStoreUrl || !config.mongoUrl;
  const sqlitePath = needsSqlite ? embeddedDatabasePath(config) : null;
  const walCheckpoints = options.walCheckpoints ?? 'on-commit';
  const opened: SqliteDatabase[] = [];
  const open = (durability: 'full' | 'normal') => {
    const db = openSqliteDatabase(sqlitePath!, { durability, autocheckpoint: walCheckpoints === 'on-commit' });
    opened.push(db);
    return db;
  };
  // The log's and the read models' writers take turns through one gate, here and on the threads
  // given the same links (the projector's), instead of sleeping on each other's locks; and each
  // side's commits wake whoever waits for them on another thread.
  const { writeGate, logCommits, readModelCommits } = options.threads ?? newThreadLinks();
  const eventsDb = config.eventStoreUrl ? null : open('full');
  const embedded = eventsDb
    ? new SqliteEventStore(eventsDb, { writer: config.sqliteWriter, writeGate, commitSignal: logCommits, ...(options.clock ? { clock: options.clock } : {}) })
    : null;
  const events: EventStore = embedded ?? EsdbEventStore.connect(config.eventStoreUrl!);
  const appender = embedded ? atomicAppender(embedded) : sequentialAppender(events);
  const readModelsDb = config.mongoUrl ? null : open('normal');
  const readModels: ReadModelStore = readModelsDb
    ? new SqliteReadModelStore(readModelsDb, { writeGate, commitSignal: readModelCommits })
    : await MongoReadModelStore.connect(config.mongoUrl!, config.mongoDatabase);
  const leases: LeaseStore = readModelsDb ? new SqliteLeaseStore(readModelsDb) : MongoLeaseStore.open(config.mongoUrl!, config.mongoDatabase);
  const sessions: SessionStore = readModelsDb ? new SqliteSessionStore(readModelsDb) : MongoSessionStore.open(config.mongoUrl!, config.mongoDatabase);
  const challenges: ChallengeStore = readModelsDb ? new SqliteChallengeStore(readModelsDb) : MongoChallengeStore.open(config.mongoUrl!, config.mongoDatabase);
  const checkpointer = sqlitePath && walCheckpoints === 'own-thread' ? WalCheckpointer.start(sqlitePath, { writeGate }) : null;
  return {
    events,
    appender,
    readModels,
    leases,
    sessions,
    challenges,
    sqlitePath,
    sqliteDb: eventsDb,
    close: async () => {
      await events.close();
      await readModels.close();
      await leases.close();
      await sessions.close();
      await challenges.close();
      await checkpointer?.stop();
      for (const db of opened) db.close();
    },
  };
}
