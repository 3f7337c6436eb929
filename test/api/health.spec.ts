import { expect } from 'chai';
import { pino } from 'pino';
import { allProjections } from '../../projections/index.js';
import { registerUser } from '../../src/app/identity.js';
import { openSqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { loadConfig } from '../../src/main/config.js';
import { type RunningVigil, startVigil } from '../../src/main/vigil.js';
import { Projector } from '../../src/projector/projector.js';
import { parsePrometheusText } from '../support/prometheus-text.js';
import { makeTempDir } from '../support/temp-dir.js';
import { TestClock, TestVigil } from '../support/test-vigil.js';

describe('Health', () => {
  describe('with every role in the process', () => {
    let vigil: TestVigil;
    before(async () => (vigil = await TestVigil.start()));
    after(() => vigil.stop());

    it('answers /healthz with 200 { status: "ok" } and no API key, and other methods with 405', async () => {
      const health = await vigil.request('GET', '/healthz');
      expect(health.status).to.equal(200);
      expect(health.body).to.deep.equal({ status: 'ok' });
      const posted = await vigil.request('POST', '/healthz');
      expect(posted.status).to.equal(405);
      expect(posted.body.error).to.be.a('string');
    });

    it('answers /readyz with 200 and each check once both stores answer and the read models hold the log', async () => {
      await vigil.user('ready@example.com');
      await vigil.settle();
      const head = await vigil.vigil.stores.events.headPosition();
      const ready = await vigil.request('GET', '/readyz');
      expect(ready.status).to.equal(200);
      expect(ready.body).to.deep.equal({
        status: 'ready',
        checks: {
          event_store: { ok: true, head_position: head },
          read_store: { ok: true, committed_position: head },
          projector: { ok: true, lag_seconds: 0, max_lag_seconds: 60 },
        },
      });
    });

    it('answers /readyz with 503 naming the read store while it cannot read its checkpoints, and 200 once it can', async () => {
      // Another connection, as an operator or a failing disk might: the read store's queries now fail.
      const db = openSqliteDatabase(vigil.vigil.stores.sqlitePath!);
      try {
        db.exec('ALTER TABLE rm_checkpoints RENAME TO rm_checkpoints_away');
        const broken = await vigil.request('GET', '/readyz');
        expect(broken.status).to.equal(503);
        expect(broken.body.error).to.equal('not ready: read_store, projector failed');
        expect(broken.body.checks.event_store.ok).to.equal(true);
        expect(broken.body.checks.read_store).to.deep.equal({ ok: false, error: 'query failed' });
        expect(broken.body.checks.projector).to.deep.equal({ ok: false, error: 'lag unknown while a store does not answer' });
        expect((await vigil.request('GET', '/healthz')).status).to.equal(200);
        db.exec('ALTER TABLE rm_checkpoints_away RENAME TO rm_checkpoints');
        expect((await vigil.request('GET', '/readyz')).status).to.equal(200);
      } finally {
        db.close();
      }
    });
  });

  describe('in an API process whose projector runs elsewhere', () => {
    const dir = makeTempDir('vigil-ready');
    let api: RunningVigil;
    before(async () => {
      const env = { VIGIL_DATA_DIR: dir.path, PORT: '0', HOST: '127.0.0.1', VIGIL_READY_MAX_LAG_EVENTS: '3' };
      // Driven by hand: the api's listening confirmations would otherwise append to the log every
      // 2 s and count as lag between the catch-up below and the answer it checks.
      api = await startVigil(loadConfig(env), { roles: ['api'], processMetrics: false, manualTimer: true, logger: pino({ level: 'silent' }) });
    });
    after(async () => {
      await api.stop();
      dir.remove();
    });
    const readyz = async () => {
      const response = await fetch(`${api.url}/readyz`);
      const body: any = await response.json();
      return { status: response.status, body };
    };

    it('answers 503 naming the projector once the read models lack more than VIGIL_READY_MAX_LAG_EVENTS events, and 200 when a projector catches up', async () => {
      expect((await readyz()).status).to.equal(200);
      for (const name of ['ann', 'bob', 'cy', 'di']) {
        await registerUser(api.commands, { email: `${name}@example.com`, first_name: name, last_name: 'Lag' }, { kind: 'system', user_id: null, api_key_id: null, request_id: null });
      }
      const head = await api.stores.events.headPosition();
      const lacking = (await api.stores.events.readAll()).length;
      expect(lacking).to.be.greaterThan(3);

      const behind = await readyz();
      expect(behind.status).to.equal(503);
      expect(behind.body).to.deep.equal({
        error: 'not ready: projector failed',
        checks: {
          event_store: { ok: true, head_position: head },
          read_store: { ok: true, committed_position: 0 },
          projector: { ok: false, error: 'read models are more than 3 events behind the log' },
        },
      });
      const metrics = parsePrometheusText(await (await fetch(`${api.url}/metrics`)).text());
      expect(metrics.value('vigil_projector_lag_events')).to.equal(lacking);
      expect(metrics.value('vigil_projector_lag_seconds')).to.be.a('number');

      await new Projector(api.stores.events, api.stores.readModels, allProjections()).catchUp();
      const caughtUp = await readyz();
      expect(caughtUp.status).to.equal(200);
      expect(caughtUp.body.checks.projector).to.deep.equal({ ok: true, lag_events: 0, max_lag_events: 3, lag_seconds: 0, max_lag_seconds: 60 });
      const caughtUpMetrics = parsePrometheusText(await (await fetch(`${api.url}/metrics`)).text());
      expect(caughtUpMetrics.value('vigil_projector_lag_events')).to.equal(0);
      expect(caughtUpMetrics.value('vigil_projector_lag_seconds')).to.equal(0);
    });
  });
  describe('in an API process whose projector trails a burst of pings', () => {
    const dir = makeTempDir('vigil-burst');
    const clock = new TestClock();
    let api: RunningVigil;
    before(async () => {
      // The defaults, on the test's clock; the projector is not in the process, so nothing catches up unasked.
      const env = { VIGIL_DATA_DIR: dir.path, PORT: '0', HOST: '127.0.0.1' };
      api = await startVigil(loadConfig(env), { roles: ['api'], processMetrics: false, manualTimer: true, clock: clock.now, logger: pino({ level: 'silent' }) });
    });
    after(async () => {
      await api.stop();
      dir.remove();
    });
    const readyz = async () => {
      const response = await fetch(`${api.url}/readyz`);
      return { status: response.status, body: (await response.json()) as any };
    };

    it('stays ready while the read models lack thousands of events recorded just now, and is not ready once one is older than VIGIL_READY_MAX_LAG_SECONDS', async () => {
      // A second of pings at full speed: the projector works them off within seconds, while the log
      // took every one in time. A container marked unhealthy for it, and a heartbeat held back,
      // would page about a monitor that is keeping up.
      const burst = Array.from({ length: 2500 }, (_, n) => ({ type: 'ProjectUpdated', data: { project_id: 'burst', name: `name ${n}`, description: '', updated_at: clock.now().toISOString() } }));
      await api.stores.events.appendToStream('project-burst', burst);
      const behind = await readyz();
      expect(behind.status).to.equal(200);
      expect(behind.body.checks.projector).to.deep.equal({ ok: true, lag_seconds: 0, max_lag_seconds: 60 });
      expect(parsePrometheusText(await (await fetch(`${api.url}/metrics`)).text()).value('vigil_projector_lag_events')).to.be.at.least(2500);

      // Behind by more than a minute, the read models are stale by any measure.
      clock.advance(61_000);
      const stale = await readyz();
      expect(stale.status).to.equal(503);
      expect(stale.body.checks.projector).to.deep.equal({ ok: false, error: 'read models lack an event recorded 61 s ago, more than 60 s' });

      await new Projector(api.stores.events, api.stores.readModels, allProjections()).catchUp();
      expect((await readyz()).status).to.equal(200);
    });
  });
});
