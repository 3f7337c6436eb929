import { recordIntegrityCheck } from '../../app/log-integrity.js';
import { commandContext } from '../../app/context.js';
import { integrityCheck, verifyLog } from '../../audit/verify-log.js';
import { verifyReadModels } from '../../audit/verify-read-models.js';
import { withScratchCopy } from '../../cli/backup-command.js';
import { jsonLine } from '../../cli/visible.js';
import { allProjections } from '../../../projections/index.js';
import { CLI_ACTOR, type CliIo } from './cli-io.js';
import { options, required } from './flags.js';
import { withStores } from './with-stores.js';

/** `verify` checks the store the server uses, or with `--file` a backup, which is left as it is. */
export async function verifyCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { file } = options(args, { file: { type: 'string' } });
  if (file === undefined) return verify(io);
  return withScratchCopy(required(file, 'file'), async (dataDir) => {
    io.stderr.write(`vigil: verifying a copy of ${file}, which is left as it is\n`);
    return verify({ ...io, env: { ...io.env, VIGIL_DATA_DIR: dataDir, VIGIL_EVENTSTORE_URL: '', VIGIL_MONGODB_URL: '' } });
  });
}

/** Tamper evidence: the hash chain of the embedded log, then every read model against a fresh replay. */
async function verify(io: CliIo): Promise<number> {
  return withStores(io, 'existing', async ({ stores }) => {
    if (!stores.sqliteDb) {
      io.stderr.write('vigil: verify checks the hash chain of the embedded event store; with EventStoreDB only the read models are compared\n');
    }
    const log = stores.sqliteDb ? verifyLog(stores.sqliteDb) : null;
    const readModels = await verifyReadModels(stores.events, stores.readModels, allProjections());
    const ok = (log?.ok ?? true) && readModels.ok;
    // Recorded in the log, so every project's audit page shows when the chain was last checked and what it found.
    if (log) await recordIntegrityCheck(commandContext(stores.events, io.clock ? { clock: io.clock } : {}), integrityCheck(log, readModels.ok, (io.clock ?? (() => new Date()))(), 'cli', null), CLI_ACTOR);
    io.stdout(jsonLine({ ok, log, read_models: readModels }));
    return ok ? 0 : 1;
  });
}
