import { expect } from 'chai';
import fc from 'fast-check';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

/** Strings no field may hold: a NUL, or a UTF-16 surrogate without its other half. */
const UNCLEAN = ['a\u0000b', '\u0000', '\ud800', 'x\udc00y', '\udfff\ud800', 'ok\ud83d'];

interface RequestCase {
  method: string;
  path: () => string;
  /** A body the route accepts as it is. */
  body: () => Record<string, unknown>;
  /** Every string field in it, as the 400 names it. */
  fields: string[];
}

/** A copy of `body` with the value at `field` (`a.b`, `a[0]`, `a.b[1]`) replaced by `value`. */
function withValueAt(body: Record<string, unknown>, field: string, value: string): Record<string, unknown> {
  const copy = structuredClone(body);
  const keys = [...field.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) => m[1] ?? Number(m[2]));
  let node: Record<string | number, unknown> = copy;
  for (const key of keys.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  expect(typeof node[keys.at(-1)!], `${field} is a string field of the body`).to.equal('string');
  node[keys.at(-1)!] = value;
  return copy;
}

describe('Request validation', function () {
  this.timeout(120_000);
  let vigil: TestVigil;
  let key: string;
  const ids = { project: '', monitor: '', channel: '', job: '' };

  before(async () => {
    // An SMTP server is configured (never reached here): without one an EMAIL channel is refused whatever its config.
    vigil = await TestVigil.start({ env: { VIGIL_SMTP_HOST: '127.0.0.1', VIGIL_SMTP_PORT: '9' } });
    key = await vigil.accountKey(await vigil.user('clean@example.com'), ALL_SCOPES);
    await vigil.user('member@example.com');
    ids.project = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Clean' } })).body.project.id;
    ids.monitor = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: ids.project, name: 'Site', type: 'UPTIME_HTTP', schedule: '1m', uptime_url: 'http://127.0.0.1:9/' } })).body.monitor.id;
    ids.job = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: ids.project, name: 'Job', type: 'JOB_BASIC', schedule: 'x' } })).body.monitor.id;
    ids.channel = (await vigil.request('POST', '/v1/notification-channels', { key, body: { project_id: ids.project, name: 'Hook', type: 'WEBHOOK', config: { url: 'http://127.0.0.1:9/' } } })).body.channel.id;
  });
  after(() => vigil.stop());

  const uptimeSettings = () => ({
    uptime_url: 'http://127.0.0.1:9/health', uptime_method: 'POST', uptime_keyword: 'ok', uptime_headers: { 'X-Token': 'token' }, uptime_request_body: '{}',
  });
  const cases: RequestCase[] = [
    { method: 'POST', path: () => '/v1/projects', body: () => ({ name: 'P', description: 'd' }), fields: ['name', 'description'] },
    { method: 'PATCH', path: () => `/v1/projects/${ids.project}`, body: () => ({ name: 'Clean', description: 'd' }), fields: ['name', 'description'] },
    { method: 'POST', path: () => `/v1/projects/${ids.project}/members`, body: () => ({ email: 'member@example.com', role: 'MEMBER' }), fields: ['email', 'role'] },
    {
      method: 'POST',
      path: () => '/v1/monitors',
      body: () => ({ project_id: ids.project, name: 'M', type: 'UPTIME_HTTP', schedule: '1m', slug: 'm', description: 'd', tags: ['t'], timezone: 'UTC', ...uptimeSettings() }),
      fields: ['project_id', 'name', 'type', 'schedule', 'slug', 'description', 'tags[0]', 'timezone', 'uptime_url', 'uptime_method', 'uptime_keyword', 'uptime_headers.X-Token', 'uptime_request_body'],
    },
    {
      method: 'PATCH',
      path: () => `/v1/monitors/${ids.monitor}`,
      body: () => ({ name: 'Site', schedule: '1m', description: 'd', tags: ['t'], timezone: 'UTC', status: 'UP', ...uptimeSettings() }),
      fields: ['name', 'schedule', 'description', 'tags[0]', 'timezone', 'status', 'uptime_url', 'uptime_method', 'uptime_keyword', 'uptime_headers.X-Token', 'uptime_request_body'],
    },
    {
      method: 'POST',
      path: () => '/v1/notification-channels',
      body: () => ({ project_id: ids.project, name: 'C', type: 'WEBHOOK', config: { url: 'http://127.0.0.1:9/', secret: 'whsec_0123456789abcdef', headers: { 'X-A': 'b' } } }),
      fields: ['project_id', 'name', 'type', 'config.url', 'config.secret', 'config.headers.X-A'],
    },
    {
      method: 'POST',
      path: () => '/v1/notification-channels',
      body: () => ({ project_id: ids.project, name: 'T', type: 'TELEGRAM', config: { bot_token: '123456:ABCDEF', chat_id: '42' } }),
      fields: ['config.bot_token', 'config.chat_id'],
    },
    {
      method: 'POST',
      path: () => '/v1/notification-channels',
      body: () => ({ project_id: ids.project, name: 'E', type: 'EMAIL', config: { to: ['a@example.com', 'b@example.com'] } }),
      fields: ['config.to[1]'],
    },
    { method: 'PATCH', path: () => `/v1/notification-channels/${ids.channel}`, body: () => ({ name: 'Hook', config: { url: 'http://127.0.0.1:9/' } }), fields: ['name', 'config.url'] },
    { method: 'POST', path: () => '/v1/notification-groups', body: () => ({ project_id: ids.project, name: 'G', description: 'd' }), fields: ['name', 'description'] },
    { method: 'POST', path: () => '/v1/api-keys', body: () => ({ name: 'K', expires_in_days: 30, scopes: ['read'] }), fields: ['name', 'scopes[0]'] },
  ];

  it('accepts each of these bodies as it is', async () => {
    for (const c of cases) {
      const answer = await vigil.request(c.method, c.path(), { key, body: c.body() });
      expect(answer.status, `${c.method} ${c.path()}: ${answer.text}`).to.be.within(200, 299);
    }
  });

  it('refuses a NUL or an unpaired surrogate in any string field of a body with a 400 naming the field, and records nothing', async () => {
    const head = await vigil.commands.events.headPosition();
    const field = fc.constantFrom(...cases.flatMap((c) => c.fields.map((name) => ({ c, name }))));
    const unclean = fc.tuple(fc.string({ maxLength: 5 }), fc.constantFrom(...UNCLEAN), fc.string({ maxLength: 5 })).map((parts) => parts.join(''));
    await fc.assert(
      fc.asyncProperty(field, unclean, async ({ c, name }, value) => {
        const answer = await vigil.request(c.method, c.path(), { key, body: withValueAt(c.body(), name, value) });
        expect(answer.status, `${c.method} ${c.path()} ${name}=${JSON.stringify(value)}: ${answer.text}`).to.equal(400);
        expect(answer.body.error).to.equal(`${name} must not contain NUL or unpaired surrogate characters`);
      }),
      { numRuns: 150, seed: 20261121 },
    );
    // Every field, with each kind of character, at least once.
    for (const c of cases) {
      for (const name of c.fields) {
        for (const value of ['a\u0000b', '\ud800']) {
          const answer = await vigil.request(c.method, c.path(), { key, body: withValueAt(c.body(), name, value) });
          expect(answer.body, `${c.method} ${c.path()} ${name}`).to.deep.equal({ error: `${name} must not contain NUL or unpaired surrogate characters` });
        }
      }
    }
    expect(await vigil.commands.events.headPosition(), 'nothing was recorded').to.equal(head);
  });

  it('refuses one in a key of an object, naming the object', async () => {
    const head = await vigil.commands.events.headPosition();
    const headers = await vigil.request('PATCH', `/v1/monitors/${ids.monitor}`, { key, body: { uptime_headers: { 'X\u0000': 'v' } } });
    expect(headers.body).to.deep.equal({ error: 'uptime_headers must not have a key that contains NUL or unpaired surrogate characters' });
    const top = await vigil.request('POST', '/v1/projects', { key, body: { name: 'P', '\ud800': 1 } });
    expect(top.body).to.deep.equal({ error: 'request body must not have a key that contains NUL or unpaired surrogate characters' });
    expect(await vigil.commands.events.headPosition()).to.equal(head);
  });

  it('refuses a NUL in the query of a ping (message, run_id) and records no ping, while the body of one stays raw bytes', async () => {
    const head = await vigil.commands.events.headPosition();
    for (const name of ['message', 'run_id']) {
      const answer = await vigil.request('GET', `/v1/ping/${ids.job}?${name}=a%00b`);
      expect(answer.status).to.equal(400);
      expect(answer.body).to.deep.equal({ error: `${name} must not contain NUL or unpaired surrogate characters` });
    }
    expect(await vigil.commands.events.headPosition()).to.equal(head);
    const payload = await vigil.request('POST', `/v1/ping/${ids.job}?message=fine`, { rawBody: 'a\u0000b' });
    expect(payload.status).to.equal(200);
  });

  it('refuses one in a list query too', async () => {
    const answer = await vigil.request('GET', `/v1/monitors/${ids.job}/pings?run_id=a%00b`, { key });
    expect(answer.status).to.equal(400);
    expect(answer.body).to.deep.equal({ error: 'run_id must not contain NUL or unpaired surrogate characters' });
  });
});
