import { expect } from 'chai';
import { pino } from 'pino';
import { issueApiKey, registerUser } from '../../src/app/identity.js';
import { createProject } from '../../src/app/projects.js';
import { loadConfig } from '../../src/main/config.js';
import { type RunningVigil, startVigil } from '../../src/main/vigil.js';
import { eventually } from '../support/eventually.js';
import { makeTempDir } from '../support/temp-dir.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

const TOKEN = /^v1\.[0-9a-z]+$/;

describe('Read your writes', () => {
  describe('with every role in the process', () => {
    let vigil: TestVigil;
    let key: string;
    let projectId: string;
    before(async () => {
      vigil = await TestVigil.start();
      key = await vigil.accountKey(await vigil.user('ryw@example.com'), ALL_SCOPES);
      projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Tokens' } })).body.project.id;
    });
    after(() => vigil.stop());

    const createMonitor = () =>
      vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Job', type: 'JOB_HEARTBEAT', schedule: '1h' } });

    it('names the position a REST write recorded in Vigil-Position, and a read that sends it back sees the write', async () => {
      const created = await createMonitor();
      expect(created.status).to.equal(201);
      const token = created.headers.get('Vigil-Position');
      expect(token).to.match(TOKEN);
      const read = await vigil.request('GET', `/v1/monitors/${created.body.monitor.id}`, { key, headers: { 'Vigil-Min-Position': token! } });
      expect(read.status).to.equal(200);
      expect(read.body.monitor.id).to.equal(created.body.monitor.id);
      expect(read.headers.get('Vigil-Position'), 'a read writes nothing').to.equal(null);
    });

    it('names the position of each later write further on, and takes several tokens in one header', async () => {
      const first = (await createMonitor()).headers.get('Vigil-Position')!;
      const second = await createMonitor();
      const later = second.headers.get('Vigil-Position')!;
      expect(later).to.not.equal(first);
      const read = await vigil.request('GET', `/v1/monitors/${second.body.monitor.id}`, { key, headers: { 'Vigil-Min-Position': `${later}, ${first}` } });
      expect(read.status).to.equal(200);
    });

    it("names the ping's position in the Ping API's answer", async () => {
      const monitorId = (await createMonitor()).body.monitor.id;
      const ping = await vigil.request('GET', `/v1/ping/${monitorId}`);
      expect(ping.status).to.equal(200);
      const token = ping.headers.get('Vigil-Position');
      expect(token).to.match(TOKEN);
      const pings = await vigil.request('GET', `/v1/monitors/${monitorId}/pings`, { key, headers: { 'Vigil-Min-Position': token! } });
      expect(pings.body.data.map((p: { id: string }) => p.id)).to.deep.equal([ping.body.ping_id]);
    });

    it('answers a malformed Vigil-Min-Position with a 400 that names the header, and one past the log head as of the head', async () => {
      const malformed = ['', 'garbage', '12', 'v1.', 'v2.1a', 'v1.1A', 'v1.-1', 'v1.1 2', 'v1.zzzzzzzzzzz', 'v1.1,,v1.2', Array(17).fill('v1.1').join(',')];
      for (const value of malformed) {
        const read = await vigil.request('GET', '/v1/projects', { key, headers: { 'Vigil-Min-Position': value } });
        expect(read.status, JSON.stringify(value)).to.equal(400);
        expect(read.body.error, JSON.stringify(value)).to.match(/^Vigil-Min-Position header /);
      }
      // Its last events deleted since, or another deployment's: nothing will ever reach it, so the head will do.
      const beyond = await vigil.request('GET', '/v1/projects', { key, headers: { 'Vigil-Min-Position': 'v1.zzzzzzzzzz' } });
      expect(beyond.status).to.equal(200);
    });
  });

  describe('in an API process whose projector runs in another', () => {
    const dir = makeTempDir('vigil-ryw');
    const env = { VIGIL_DATA_DIR: dir.path, PORT: '0', HOST: '127.0.0.1', VIGIL_READ_YOUR_WRITES_TIMEOUT_MS: '1500', VIGIL_LEASE_TTL_MS: '300' };
    const silent = pino({ level: 'silent' });
    let api: RunningVigil;
    let projector: RunningVigil | null = null;
    let key: string;
    let monitorId: string;
    let headReads = 0;
    let checkpointReads = 0;

    const startProjector = async () => (projector = await startVigil(loadConfig(env), { roles: ['projector'], processMetrics: false, logger: silent }));
    const request = async (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) => {
      const response = await fetch(`${api.url}${path}`, {
        method,
        headers: { 'X-API-Key': key, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, headers: response.headers, body: (await response.json()) as any };
    };
    const pingIds = (response: { body: { data: { id: string }[] } }) => response.body.data.map((p) => p.id);

    before(async () => {
      // Two Vigils, each with its own thread links: nothing in memory tells the API that the projector committed.
      api = await startVigil(loadConfig(env), { roles: ['api'], processMetrics: false, logger: silent });
      await startProjector();
      const events = api.stores.events;
      const head = events.headPosition.bind(events);
      events.headPosition = () => {
        headReads += 1;
        return head();
      };
      const readModels = api.stores.readModels;
      const checkpoints = readModels.readCheckpoints.bind(readModels);
      readModels.readCheckpoints = () => {
        checkpointReads += 1;
        return checkpoints();
      };
      const system = { kind: 'system', user_id: null, api_key_id: null, request_id: null } as const;
      const { user } = await registerUser(api.commands, { email: 'split@example.com', first_name: 'Split', last_name: 'Test' }, system);
      const { projectId } = await createProject(api.commands, { name: 'Split', description: '', owner_id: user.id }, system);
      const issued = await issueApiKey(
        api.commands,
        { user_id: user.id, name: 'test', expires_in_days: 30, kind: 'ACCOUNT', project_id: null, scopes: ALL_SCOPES, env: 'live', created_by_api_key_id: null },
        system,
      );
      key = issued.key;
      await eventually(async () => expect((await request('GET', '/v1/projects')).status).to.equal(200));
      const created = await request('POST', '/v1/monitors', {}, { project_id: projectId, name: 'Job', type: 'JOB_HEARTBEAT', schedule: '1h' });
      expect(created.status).to.equal(201);
      monitorId = created.body.monitor.id;
    });
    after(async () => {
      await api.stop();
      await projector?.stop();
      dir.remove();
    });

    it('answers a read without a token from what the read models hold, without reading the log head', async () => {
      await projector!.stop();
      projector = null;
      const ping = await fetch(`${api.url}/v1/ping/${monitorId}`);
      expect(ping.status).to.equal(200);
      const readsBefore = headReads;
      // The monitor's document is a read model (the ping list is read from the log itself).
      const read = await request('GET', `/v1/monitors/${monitorId}`);
      expect(read.status).to.equal(200);
      expect(read.body.monitor.total_pings_received, 'the ping is not projected yet').to.equal(0);
      expect(headReads - readsBefore).to.equal(0);
    });

    it('names the position in the 503 of a write the read models did not take up in time', async () => {
      const paused = await request('POST', `/v1/monitors/${monitorId}/pause`);
      expect(paused.status).to.equal(503);
      expect(paused.headers.get('Vigil-Position')).to.match(TOKEN);
    });

    it("answers a read with the ping's token 503 while no projector takes the ping up, then with the ping once one does", async () => {
      const ping = await fetch(`${api.url}/v1/ping/${monitorId}/log`);
      const token = ping.headers.get('Vigil-Position')!;
      const pingId = ((await ping.json()) as { ping_id: string }).ping_id;

      const stale = await request('GET', `/v1/monitors/${monitorId}/pings`, { 'Vigil-Min-Position': token });
      expect(stale.status).to.equal(503);
      expect(stale.headers.get('Retry-After')).to.equal('1');
      expect(stale.body.error).to.be.a('string');

      const readsBefore = checkpointReads;
      const waiting = request('GET', `/v1/monitors/${monitorId}/pings`, { 'Vigil-Min-Position': token });
      // It is waiting once it has read the checkpoints and found them short of the token.
      await eventually(() => expect(checkpointReads - readsBefore).to.be.at.least(2));
      await startProjector();
      const seen = await waiting;
      expect(seen.status).to.equal(200);
      expect(pingIds(seen)).to.include(pingId);
    }).timeout(10_000);
  });
});
