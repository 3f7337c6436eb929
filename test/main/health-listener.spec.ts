import { expect } from 'chai';
import { pino } from 'pino';
import { loadConfig } from '../../src/main/config.js';
import { type RunningVigil, startVigil } from '../../src/main/vigil.js';
import type { RoleName } from '../../src/main/config.js';
import { makeTempDir } from '../support/temp-dir.js';

describe('Health listener', () => {
  const started: { vigil: RunningVigil; remove: () => void }[] = [];
  afterEach(async () => {
    for (const { vigil, remove } of started.splice(0)) {
      await vigil.stop();
      remove();
    }
  });

  async function start(roles: RoleName[], env: NodeJS.ProcessEnv, healthListener = true): Promise<RunningVigil> {
    const dir = makeTempDir('vigil-health');
    const config = loadConfig({ VIGIL_DATA_DIR: dir.path, HOST: '127.0.0.1', PORT: '0', VIGIL_LOG_LEVEL: 'silent', ...env });
    const vigil = await startVigil(config, { roles, manualTimer: true, processMetrics: false, healthListener, logger: pino({ level: 'silent' }) });
    started.push({ vigil, remove: dir.remove });
    return vigil;
  }

  describe('of a serve process without the api role', () => {
    it('answers /healthz and /readyz on VIGIL_HEALTH_PORT, as the API does', async () => {
      const vigil = await start(['timer'], { VIGIL_HEALTH_PORT: '0' });
      expect(vigil.url).to.equal(null);
      expect(vigil.healthUrl).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);

      const live = await fetch(`${vigil.healthUrl}/healthz`);
      expect(live.status).to.equal(200);
      expect(await live.json()).to.deep.equal({ status: 'ok' });
      const ready = await fetch(`${vigil.healthUrl}/readyz`);
      expect(ready.status).to.equal(200);
      expect(await ready.json()).to.deep.include({ status: 'ready' });
    });

    it('answers /readyz with 503 naming the failed check while the read models trail the log too far', async () => {
      const vigil = await start(['checker'], { VIGIL_HEALTH_PORT: '0', VIGIL_READY_MAX_LAG_EVENTS: '0', VIGIL_SECRET_KEY: '11'.repeat(32) });
      // No projector runs in this process (nor anywhere): the event stays unprojected.
      await vigil.stores.events.appendToStream('probe-1', [{ type: 'ProbeRecorded', data: { probe_id: '1' } }]);

      const ready = await fetch(`${vigil.healthUrl}/readyz`);
      expect(ready.status).to.equal(503);
      const body = (await ready.json()) as { error: string; checks: { projector: { ok: boolean } } };
      expect(body.error).to.equal('not ready: projector failed');
      expect(body.checks.projector.ok).to.equal(false);
      expect((await fetch(`${vigil.healthUrl}/healthz`)).status).to.equal(200);
    });

    it('serves nothing else: other paths are 404 and other methods 405, each with an error body', async () => {
      const vigil = await start(['notifier'], { VIGIL_HEALTH_PORT: '0', VIGIL_SECRET_KEY: '11'.repeat(32) });
      const elsewhere = await fetch(`${vigil.healthUrl}/v1/projects`);
      expect(elsewhere.status).to.equal(404);
      expect(await elsewhere.json()).to.have.property('error');
      const posted = await fetch(`${vigil.healthUrl}/healthz`, { method: 'POST' });
      expect(posted.status).to.equal(405);
      expect(posted.headers.get('allow')).to.equal('GET, HEAD');
      expect(await posted.json()).to.have.property('error');
    });
  });

  it('is not started without VIGIL_HEALTH_PORT, nor beside the API (which answers both itself), nor unless the entry point asks', async () => {
    expect((await start(['timer'], {})).healthUrl).to.equal(null);
    const api = await start(['api', 'projector'], { VIGIL_HEALTH_PORT: '0' });
    expect(api.healthUrl).to.equal(null);
    expect((await fetch(`${api.url}/healthz`)).status).to.equal(200);
    expect((await start(['timer'], { VIGIL_HEALTH_PORT: '0' }, false)).healthUrl).to.equal(null);
  });
});
