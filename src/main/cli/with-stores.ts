import { existsSync } from 'node:fs';
import { DomainError } from '../../domain/errors.js';
import { CheckpointConflictError } from '../../readstore/read-model-store.js';
import { describeDatabaseFile, describeStore } from '../../cli/store-description.js';
import { type VigilConfig, loadConfig } from '../config.js';
import { type Stores, embeddedDatabasePath, openStores } from '../stores.js';
import { type CliIo, CliFailure, isFileError } from './cli-io.js';

export interface OpenedStore {
  stores: Stores;
  config: VigilConfig;
  /** The store as errors name it: the absolute file and where its dir came from, or the servers' URLs. */
  name: string;
}

/**
 * Opens the stores the server uses. A command that reads what is there (`existing`) refuses an
 * embedded data dir without a database rather than create an empty one: a forgotten or different
 * VIGIL_DATA_DIR is the likelier cause. A refusal that depends on what is stored names the store.
 */
export async function withStores<T>(io: CliIo, needs: 'existing' | 'new or existing', work: (opened: OpenedStore) => Promise<T>): Promise<T> {
  const config = loadConfig(io.env);
  const sqlitePath = embeddedDatabasePath(config);
  if (needs === 'existing' && !config.eventStoreUrl && !existsSync(sqlitePath)) {
    throw new CliFailure(
      `no database at ${describeDatabaseFile(io.env, sqlitePath)}; nothing was created.\n` +
        'vigil: set VIGIL_DATA_DIR to the data dir of your Vigil server, or start a new one with: vigil bootstrap --email you@example.com',
    );
  }
  const name = describeStore(config, io.env, sqlitePath);
  const stores = await openStores(config).catch((error: unknown) => {
    // A file error names its path already (a data dir that is a file); the rest get the store's name.
    if (isFileError(error) || !(error instanceof Error)) throw error;
    throw new CliFailure(`could not open ${name}: ${error.message}`);
  });
  try {
    return await work({ stores, config, name });
  } catch (error) {
    if (error instanceof DomainError) throw new CliFailure(`${error.message} in ${name}`);
    if (error instanceof CheckpointConflictError) throw new CliFailure(`${error.message}: is a server running on ${name}? Stop it first.`);
    throw error;
  } finally {
    await stores.close();
  }
}
