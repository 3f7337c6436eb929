import type { MonitorAppender } from './monitor-appender.js';
import type { StreamAppender } from './stream-appender.js';

/**
 * How the command side's decisions reach the log. Which one Vigil has depends on the store, so it
 * is chosen once, where the stores are wired (src/main/stores.ts; `commandContext` for a store
 * wired by hand), and no command asks the store what it can do:
 * - atomic (atomic-appender.ts), the embedded store's: one append to every stream written, with
 *   every stream the decision read checked at the revision it was read at, or nothing recorded;
 * - sequential (sequential-appender.ts), EventStoreDB's, which has no transaction across streams:
 *   one append per stream written, in the order given, each conditional on its own revision only.
 */
export interface Appender extends StreamAppender {
  /** The same choice for a monitor's command, whose recovery rules are its own (runMonitorCommand). */
  readonly monitor: MonitorAppender;
}
