import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { commandContext } from '../app/context.js';
import { DomainError } from '../domain/errors.js';
import { runExec } from '../cli/exec.js';
import { RESET_PASSWORD_USAGE, runResetPassword } from '../cli/reset-password-command.js';
import { runImport } from '../cli/import.js';
import { runPing } from '../cli/ping-command.js';
import { runMaintenance } from '../cli/maintenance-command.js';
import { runBackup } from '../cli/backup-command.js';
import { BackupRefused } from '../eventstore/sqlite-backup.js';
import { visibleLines } from '../cli/visible.js';
import { ConfigError, loadConfig, parseRoles } from './config.js';
import { secretBoxFor, startVigil } from './vigil.js';
import { bootstrap, createKey, createUser } from './cli/accounts.js';
import { CLI_ACTOR, type CliIo, CliFailure, UsageError, isFileError } from './cli/cli-io.js';
import { exportEvents, replay } from './cli/export-replay.js';
import { options } from './cli/flags.js';
import { rebuildProjections } from './cli/rebuild.js';
import { verifyCommand } from './cli/verify.js';
import { withStores } from './cli/with-stores.js';

export type { CliIo } from './cli/cli-io.js';

const USAGE = `usage:
  vigil bootstrap --email E [--first-name F] [--last-name L] [--project NAME] [--days 90] [--json]
  vigil users create --email E [--first-name F] [--last-name L] [--print FIELD]
  ${RESET_PASSWORD_USAGE}
  vigil keys create --email E --name N --days D (--scopes read,manage_monitors,... | --project P) [--env live|test] [--print FIELD]
  vigil projections rebuild
  vigil verify [--file BACKUP]
  vigil backup FILE [--force]
  vigil events export --project P [--from ISO] [--to ISO] > file.ndjson
  vigil replay file.ndjson
  vigil serve [--roles api,projector,timer,checker,notifier]
  vigil exec (--monitor ID | --slug SLUG [--ping-key KEY]) [--url URL] [--timeout 30m] [--tail-kb 10] -- COMMAND [ARGS...]
  vigil ping MONITOR_ID [start|success|fail|log] [--url URL] [--run-id X] [--message M] [--exit-code N]
  vigil import (healthchecks|uptime-kuma) FILE --project P [--dry-run] [--json]
  vigil maintenance start (--monitor ID|SLUG ... | --project P) --for 30m [--name NAME] [--url URL]   (VIGIL_API_KEY)
  vigil maintenance (end WINDOW_ID | list --project P) [--url URL]

  bootstrap creates a user, a project it owns and an account key with every scope, and prints
  VIGIL_USER=, VIGIL_API_KEY=, VIGIL_PROJECT= and VIGIL_PING_KEY= lines: eval "$(vigil bootstrap --email E)".
  --print FIELD prints that field of the answer alone (e.g. --print key) instead of the JSON object.
  The store is VIGIL_DATA_DIR/vigil.db (./data unless set), or VIGIL_EVENTSTORE_URL and VIGIL_MONGODB_URL.`;

/** The operator's tool: same data dir and env as the server; prints one JSON object on stdout. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const [noun, verb, ...rest] = argv;
    const command = `${noun ?? ''} ${verb ?? ''}`.trim();
    switch (command) {
      case 'users create':
        return await createUser(rest, io);
      case 'users reset-password':
        return await runResetPassword(rest, io, (work) => withStores(io, 'existing', ({ stores, config }) => work(commandContext(stores.events, { clock: io.clock ?? (() => new Date()), apiKeyPrefix: config.apiKeyPrefix }))), CLI_ACTOR, (message) => new UsageError(message), (message) => new CliFailure(message));
      case 'keys create':
        return await createKey(rest, io);
      case 'projections rebuild':
        return await rebuildProjections(io);
      case 'events export':
        return await exportEvents(rest, io);
      default:
        if ((noun === 'help' || noun === '--help' || noun === '-h') && verb === undefined) {
          io.stdout(USAGE);
          return 0;
        }
        if (noun === 'bootstrap') return await bootstrap(argv.slice(1), io);
        if (noun === 'verify') return await verifyCommand(argv.slice(1), io);
        if (noun === 'backup') return await runBackup(argv.slice(1), io);
        if (noun === 'replay') return await replay(verb, io);
        // A wrapped job's output is passed through byte for byte, so exec writes to the real stdout.
        if (noun === 'exec') return await runExec(argv.slice(1), { env: io.env, stdout: process.stdout, stderr: io.stderr });
        if (noun === 'ping') return await runPing(argv.slice(1), io);
        if (noun === 'maintenance') return await runMaintenance(argv.slice(1), io);
        if (noun === 'import') {
          const clock = io.clock ?? (() => new Date());
          return await runImport(argv.slice(1), io, (work) => withStores(io, 'existing', ({ stores, config }) => work(commandContext(stores.events, { clock, secrets: secretBoxFor(config, stores) }))), CLI_ACTOR);
        }
        if (noun === 'serve') return await serve([verb, ...rest].filter((a): a is string => a !== undefined), io);
        throw new UsageError(noun ? `unknown command: ${command}` : 'no command given');
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`vigil: ${visibleLines(error.message)}\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof DomainError || error instanceof ConfigError || error instanceof CliFailure || error instanceof BackupRefused || isFileError(error)) {
      io.stderr.write(`vigil: ${visibleLines(error.message)}\n`);
      return 1;
    }
    throw error;
  }
}

async function serve(args: readonly string[], io: CliIo): Promise<number> {
  const values = options(args, { roles: { type: 'string' } });
  // A long-running role process checkpoints the WAL off its commits, as `npm start` does.
  const vigil = await startVigil(loadConfig(io.env), { roles: parseRoles(values.roles), walCheckpoints: 'own-thread', healthListener: true });
  vigil.logger.info({ url: vigil.url, health_url: vigil.healthUrl }, 'vigil started');
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  await vigil.stop();
  return 0;
}

const invokedDirectly = process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
if (invokedDirectly) {
  runCli(process.argv.slice(2), { env: process.env, stdout: (text) => process.stdout.write(`${text}\n`), stderr: process.stderr }).then(
    (code) => process.exit(code),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
