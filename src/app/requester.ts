import type { Caller } from '../domain/access/authorize.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';
import type { Actor } from './command-handler.js';
import type { CommandContext } from './context.js';

/**
 * Who asks a use case, as every edge (the REST API, the console) tells it: the caller, whom the
 * access rules judge; the actor its events record; and how the edge waits for the read models to
 * include what was appended (read-your-writes) before it answers.
 */
export interface Requester {
  caller: Caller;
  actor: Actor;
  settled: (position: number | null) => Promise<void>;
}

/** What the use cases of src/app read and append through. */
export interface UseCaseDependencies {
  commands: CommandContext;
  readModels: ReadModelStore;
}
