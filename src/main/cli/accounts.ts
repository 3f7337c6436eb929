import { loadState } from '../../app/command-handler.js';
import { commandContext } from '../../app/context.js';
import { findUserIdByEmail, issueApiKey, registerUser } from '../../app/identity.js';
import { createProject, roleOnProject } from '../../app/projects.js';
import { roleAtLeast } from '../../domain/access/roles.js';
import { SCOPES, type Scope } from '../../domain/access/scopes.js';
import { DomainError } from '../../domain/errors.js';
import { normalizeEmail } from '../../domain/identity/email-claim.js';
import { projectDecider, projectStream } from '../../domain/projects/project.js';
import { jsonLine, visible } from '../../cli/visible.js';
import { CLI_ACTOR, type CliIo, CliFailure, UsageError } from './cli-io.js';
import { days, email, options, printAnswer, printedField, required } from './flags.js';
import { withStores } from './with-stores.js';

const USER_FIELDS = ['id', 'email', 'first_name', 'last_name'] as const;
const KEY_FIELDS = ['id', 'key', 'name', 'scopes', 'project_id', 'env', 'expires_at'] as const;

export async function createUser(args: readonly string[], io: CliIo): Promise<number> {
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

export async function createKey(args: readonly string[], io: CliIo): Promise<number> {
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
export async function bootstrap(args: readonly string[], io: CliIo): Promise<number> {
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

/** A value as a POSIX shell reads it back unchanged: bare when it is plainly safe, else single-quoted. */
function shellWord(value: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}
