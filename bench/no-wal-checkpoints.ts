/**
 * Preloaded into a server by page-census.ts: no WalCheckpointer thread, so that the WAL keeps
 * every page each commit wrote (the server's connections have SQLite's autocheckpoint off).
 */
import { WalCheckpointer } from '../src/eventstore/wal-checkpointer.js';

WalCheckpointer.start = () => ({ stop: async () => {} }) as unknown as WalCheckpointer;
