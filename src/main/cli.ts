import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SingleBar } from 'cli-progress';
import { RETIRED_PROJECTIONS, allProjections } from '../../projections/index.js';
import { type Actor, loadState } from '../app/command-handler.js';
import { commandContext } from '../app/context.js';
import { findUserIdByEmail, issueApiKey, registerUser } from '../app/identity.js';
import { createProject, roleOnProject } from '../app/projects.js';
import { roleAtLeast } from '../domain/access/roles.js';
import { SCOPES, type Scope } from '../domain/access/scopes.js';
import { DomainError } from '../domain/errors.js';
import { normalizeEmail } from '../domain/identity/email-claim.js';
import { KEY_LIFETIME_DAYS } from '../domain/identity/user.js';
import { projectDecider, projectStream } from '../domain/projects/project.js';
import { Projector } from '../projector/projector.js';
import { CheckpointConflictError } from '../readstore/read-model-store.js';
import { integrityCheck, verifyLog } from '../audit/verify-log.js';
import { recordIntegrityCheck } from '../app/log-integrity.js';
import { type ExportedEvent, projectEvents } from '../audit/export.js';
import type { JsonObject } from '../eventstore/event-store.js';
import type { IncidentDocument } from '../../projections/incidents.js';
import { verifyReadModels } from '../audit/verify-read-models.js';
import { runExec } from '../cli/exec.js';
import { RESET_PASSWORD_USAGE, runResetPassword } from '../cli/reset-password-command.js';
import { runImport } from '../cli/import.js';
import { runPing } from '../cli/ping-command.js';
import { runMaintenance } from '../cli/maintenance-command.js';
import { runBackup, withScratchCopy } from '../cli/backup-command.js';
import { BackupRefused } from '../eventstore/sqlite-backup.js';
import { describeDatabaseFile, describeStore } from '../cli/store-description.js';
import { jsonLine, visible, visibleLines } from '../cli/visible.js';
import { ConfigError, type VigilConfig, loadConfig, parseRoles } from './config.js';
import { type Stores, embeddedDatabasePath, openStores } from './stores.js';
import { secretBoxFor, startVigil } from './vigil.js';

export interface CliIo {
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
  stderr: NodeJS.WritableStream;
  /** The time commands are stamped with (key expiry counts from it); the wall clock by default. */
  clock?: () => Date;
}

class UsageError extends Error {}

/** A failure the operator can act on from its message alone: printed without a stack, exit 1. */
class CliFailure extends Error {}

/** An error of the file system (a data dir that is a file, a replay file that is not there). */
function isFileError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).path === 'string' && typeof (error as NodeJS.ErrnoException).code === 'string';
}

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

const CLI_ACTOR: Actor = { kind: 'cli', user_id: null, api_key_id: null, request_id: null };

const USER_FIELDS = ['id', 'email', 'first_name', 'last_name'] as const;
const KEY_FIELDS = ['id', 'key', 'name', 'scopes', 'project_id', 'env', 'expires_at'] as const;

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

function options<T extends Record<string, { type: 'string' | 'boolean' }>>(args: readonly string[], spec: T) {
  try {
    return parseArgs({ args: [...args], options: spec, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

function required(value: string | undefined, flag: string): string {
  if (value === undefined || value === '') throw new UsageError(`--${flag} is required`);
  return value;
}

function email(value: string | undefined): string {
  const given = required(value, 'email');
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(given)) throw new UsageError(`--email must be an email address, not ${given}`);
  return given;
}

/** Checked here, before anything is written, as a mistyped flag is no reason to open the store. */
function days(value: string | undefined, fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  const given = required(value, 'days');
  const { min, max } = KEY_LIFETIME_DAYS;
  if (!/^\d{1,3}$/.test(given) || Number(given) < min || Number(given) > max) throw new UsageError(`--days must be a whole number from ${min} to ${max}, not ${given}`);
  return Number(given);
}

/** `--print FIELD`, checked before anything is created: a typo must not cost a key that is then never shown. */
function printedField<F extends string>(value: string | undefined, fields: readonly F[]): F | null {
  if (value === undefined) return null;
  const field = fields.find((f) => f === value);
  if (!field) throw new UsageError(`--print takes one of ${fields.join(', ')}, not ${value}`);
  return field;
}

/** The whole answer as JSON, or one field of it alone on its line, for `KEY=$(vigil keys create … --print key)`. */
function printAnswer<F extends string>(io: CliIo, answer: Record<F, unknown>, field: F | null): void {
  if (field === null) {
    io.stdout(jsonLine(answer));
    return;
  }
  const value = answer[field];
  io.stdout(visible(Array.isArray(value) ? value.join(',') : value === null || value === undefined ? '' : String(value)));
}

interface OpenedStore {
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
async function withStores<T>(io: CliIo, needs: 'existing' | 'new or existing', work: (opened: OpenedStore) => Promise<T>): Promise<T> {
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

async function createUser(args: readonly string[], io: CliIo): Promise<number> {
  const values = options(args, { email: { type: 'string' }, 'first-name': { type: 'string' }, 'last-name': { type: 'string' }, print: { type: 'string' } });
  const address = email(values.email);
  const field = printedField(values.print, USER_FIELDS);
  return withStores(io, 'new or existing', async ({ stores }) => {
    const { user } = await registerUser(
      commandContext(stores.events, { clock: io.clock ?? (() => new Date()) }),
      { email: address, first_name: values['first-name'] ?? '', last_name: values['last-name'] ?? '' },
      CLI_ACTOR,
    );
    printAnswer(io, user, field);
    return 0;
  });
}

async function createKey(args: readonly string[], io: CliIo): Promise<number> {
  const values = options(args, {
    email: { type: 'string' },
    name: { type: 'string' },
    days: { type: 'string' },
    scopes: { type: 'string' },
    project: { type: 'string' },
    env: { type: 'string' },
    print: { type: 'string' },
  });
  const address = required(values.email, 'email');
  const name = required(values.name, 'name');
  const lifetime = days(values.days);
  const env = values.env ?? 'live';
  if (env !== 'live' && env !== 'test') throw new UsageError('--env must be live or test');
  if (values.scopes !== undefined && values.project !== undefined) throw new UsageError('give --scopes or --project, not both');
  const scopes = parseScopes(values.scopes ?? '');
  const projectId = values.project ?? null;
  const field = printedField(values.print, KEY_FIELDS);
  return withStores(io, 'existing', async ({ stores, config }) => {
    const context = commandContext(stores.events, { apiKeyPrefix: config.apiKeyPrefix, clock: io.clock ?? (() => new Date()) });
    const userId = await findUserIdByEmail(context, address);
    if (!userId) throw new DomainError('not_found', `no user has the email ${address}`);
    if (projectId !== null) {
      const { state: project } = await loadState(context.events, projectStream(projectId), projectDecider);
      if (project.status !== 'active') throw new DomainError('not_found', `no project has the id ${projectId}`);
      const role = await roleOnProject(context, projectId, userId);
      if (role === null || !roleAtLeast(role, 'MANAGER')) {
        throw new DomainError('invalid', `project-scoped keys are created by the Owners and Managers of the project, and ${address} is ${role === null ? 'not a member' : `a ${role}`} of ${projectId}`);
      }
    }
    const issued = await issueApiKey(
      context,
      {
        user_id: userId,
        name,
        expires_in_days: lifetime,
        kind: projectId === null ? 'ACCOUNT' : 'PROJECT',
        project_id: projectId,
        scopes,
        env,
        created_by_api_key_id: null,
      },
      CLI_ACTOR,
    );
    const { api_key_id, scopes: granted, project_id, expires_at } = issued.event;
    printAnswer(io, { id: api_key_id, key: issued.key, name, scopes: granted, project_id, env, expires_at }, field);
    return 0;
  });
}

/**
 * The first five minutes in one command: a user, a project it owns and an account key with every
 * scope. Not idempotent, as a key is shown only once: for an email already registered it refuses
 * before writing anything, and `keys create` is the way to another key.
 */
async function bootstrap(args: readonly string[], io: CliIo): Promise<number> {
  const values = options(args, {
    email: { type: 'string' },
    'first-name': { type: 'string' },
    'last-name': { type: 'string' },
    project: { type: 'string' },
    days: { type: 'string' },
    json: { type: 'boolean' },
  });
  const address = email(values.email);
  const lifetime = days(values.days, 90);
  const projectName = values.project ?? 'My project';
  if (projectName.trim() === '' || projectName.length > 100) throw new UsageError('--project must be a name of 1 to 100 characters');
  return withStores(io, 'new or existing', async ({ stores, config, name }) => {
    const context = commandContext(stores.events, { apiKeyPrefix: config.apiKeyPrefix, clock: io.clock ?? (() => new Date()) });
    let user: Awaited<ReturnType<typeof registerUser>>['user'];
    try {
      ({ user } = await registerUser(context, { email: address, first_name: values['first-name'] ?? '', last_name: values['last-name'] ?? '' }, CLI_ACTOR));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      throw new CliFailure(
        `${error.message} in ${name}; bootstrap changed nothing.\n` +
          `vigil: bootstrap sets up a new user only; for another key of ${normalizeEmail(address)}, run: vigil keys create --email ${normalizeEmail(address)} --name NAME --days 90 --scopes ${SCOPES.join(',')}`,
      );
    }
    const { projectId, pingKey } = await createProject(context, { name: projectName, description: '', owner_id: user.id }, CLI_ACTOR);
    const issued = await issueApiKey(
      context,
      { user_id: user.id, name: 'bootstrap', expires_in_days: lifetime, kind: 'ACCOUNT', project_id: null, scopes: [...SCOPES], env: 'live', created_by_api_key_id: null },
      CLI_ACTOR,
    );
    const key = { id: issued.event.api_key_id, key: issued.key, name: 'bootstrap', scopes: issued.event.scopes, project_id: null, env: 'live', expires_at: issued.event.expires_at };
    if (values.json) {
      io.stdout(jsonLine({ user, key, project: { id: projectId, name: projectName, ping_key: pingKey } }));
    } else {
      io.stdout(
        [
          ['VIGIL_USER', user.id],
          ['VIGIL_API_KEY', issued.key],
          ['VIGIL_PROJECT', projectId],
          ['VIGIL_PING_KEY', pingKey],
        ]
          .map(([variable, value]) => `${variable}=${shellWord(value!)}`)
          .join('\n'),
      );
    }
    io.stderr.write(`vigil: bootstrapped ${visible(user.email)} with project "${visible(projectName)}" in ${visible(name)}; the server must use the same store. The API key is shown only this once.\n`);
    return 0;
  });
}

function parseScopes(list: string): Scope[] {
  const scopes = list.split(',').map((s) => s.trim()).filter(Boolean);
  const valid: Scope[] = [];
  for (const scope of scopes) {
    const known = SCOPES.find((s) => s === scope);
    if (!known) throw new UsageError(`unknown scope ${scope}; scopes are ${SCOPES.join(', ')}`);
    if (!valid.includes(known)) valid.push(known);
  }
  return valid;
}

async function rebuildProjections(io: CliIo): Promise<number> {
  return withStores(io, 'existing', async ({ stores }) => {
    const projector = new Projector(stores.events, stores.readModels, allProjections(), { retired: RETIRED_PROJECTIONS });
    const bar = new SingleBar({
      stream: io.stderr,
      format: 'rebuilding read models [{bar}] {percentage}% | {value}/{total} log position',
      // Piped or in CI there is no TTY: still print progress, as a line every few seconds.
      noTTYOutput: true,
      notTTYSchedule: 2000,
    });
    const head = await stores.events.headPosition();
    bar.start(Math.max(head, 1), 0);
    await projector.rebuild((position, total) => {
      bar.setTotal(Math.max(total, 1));
      bar.update(position);
    });
    bar.update(Math.max(head, 1));
    bar.stop();
    io.stdout(jsonLine({ rebuilt: allProjections().map((p) => p.name), position: head }));
    return 0;
  });
}

/** `verify` checks the store the server uses, or with `--file` a backup, which is left as it is. */
async function verifyCommand(args: readonly string[], io: CliIo): Promise<number> {
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

function progressBar(io: CliIo, label: string): SingleBar {
  return new SingleBar({ stream: io.stderr, format: `${label} [{bar}] {percentage}% | {value}/{total}`, noTTYOutput: true, notTTYSchedule: 2000 });
}

async function exportEvents(args: readonly string[], io: CliIo): Promise<number> {
  const values = options(args, { project: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } });
  const projectId = required(values.project, 'project');
  for (const flag of ['from', 'to'] as const) {
    if (values[flag] !== undefined && Number.isNaN(Date.parse(values[flag]))) throw new UsageError(`--${flag} must be an ISO 8601 time`);
  }
  const range = {
    ...(values.from ? { from: new Date(values.from).toISOString() } : {}),
    ...(values.to ? { to: new Date(values.to).toISOString() } : {}),
  };
  return withStores(io, 'existing', async ({ stores, name }) => {
    const bar = progressBar(io, 'exporting');
    bar.start(Math.max(1, await stores.events.headPosition()), 0);
    let count = 0;
    for await (const event of projectEvents(stores.events, projectId, range, (position) => bar.update(position))) {
      io.stdout(jsonLine(event));
      count += 1;
    }
    bar.stop();
    io.stderr.write(`exported ${count} events of project ${visible(projectId)} from ${visible(name)}\n`);
    return 0;
  });
}

function parsedLine(line: string, index: number, file: string): ExportedEvent {
  try {
    return JSON.parse(line) as ExportedEvent;
  } catch {
    throw new CliFailure(`line ${index + 1} of ${file} is not JSON: is it a file that vigil events export wrote?`);
  }
}

/** Rebuilds a fresh store from an export and reports the incidents it finds. */
async function replay(file: string | undefined, io: CliIo): Promise<number> {
  if (!file) throw new UsageError('replay needs the file an export wrote');
  const lines = readFileSync(file, 'utf8').split('\n').filter((line) => line.trim() !== '');
  // All of it read before anything is written: a file that is no export is refused whole.
  const exported = lines.map((line, index) => parsedLine(line, index, file));
  const scratch = mkdtempSync(join(tmpdir(), 'vigil-replay-'));
  const stores = await openStores(loadConfig({ ...io.env, VIGIL_DATA_DIR: scratch, VIGIL_EVENTSTORE_URL: '', VIGIL_MONGODB_URL: '' }));
  const bar = progressBar(io, 'replaying');
  try {
    bar.start(exported.length, 0);
    for (const [index, event] of exported.entries()) {
      await stores.events.appendToStream(event.stream, [{ id: event.id, type: event.type, data: event.data as JsonObject, metadata: event.metadata as JsonObject }]);
      if (index % 500 === 0) bar.update(index);
    }
    bar.update(exported.length);
    // Stopped here as well as on a failure: a running bar's timer would keep the process alive.
    bar.stop();
    await new Projector(stores.events, stores.readModels, allProjections(), { retired: RETIRED_PROJECTIONS }).catchUp();
    const incidents = (await stores.readModels.find<IncidentDocument>('incidents', {}, { sort: [['started_at', 1]] })).map((s) => s.doc);
    const byStatus = (status: string) => incidents.filter((i) => i.status === status).length;
    io.stdout(
      jsonLine({
        events: exported.length,
        incidents: incidents.map((i) => ({ id: i.id, monitor_id: i.monitor_id, event: i.event, status: i.status, started_at: i.started_at, acknowledged_at: i.acknowledged_at, resolved_at: i.resolved_at })),
        summary: { open: byStatus('OPEN'), acknowledged: byStatus('ACKNOWLEDGED'), resolved: byStatus('RESOLVED') },
      }),
    );
    return 0;
  } finally {
    bar.stop();
    await stores.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** A value as a POSIX shell reads it back unchanged: bare when it is plainly safe, else single-quoted. */
function shellWord(value: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
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
