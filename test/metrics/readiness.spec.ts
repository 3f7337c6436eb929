import { expect } from 'chai';
import type { EventStore } from '../../src/eventstore/event-store.js';
import { type SqliteDatabase, openSqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { SqliteEventStore } from '../../src/eventstore/sqlite-event-store.js';
import { checkReadiness } from '../../src/metrics/readiness.js';
import type { Projection } from '../../src/projector/projection.js';
import { Projector } from '../../src/projector/projector.js';
import { SqliteReadModelStore } from '../../src/readstore/sqlite-read-model-store.js';
import { makeTempDir } from '../support/temp-dir.js';
import { TestClock } from '../support/test-vigil.js';

const renameCounter: Projection = {
  name: 'rename_counts',
  version: 1,
  collection: { name: 'rename_counts', indexes: [] },
  handles: ['ProjectUpdated'],
  targets: (event) => ({ ids: event.type === 'ProjectUpdated' ? [event.data.project_id] : [] }),
  apply: (doc) => ({ renames: Number(doc?.['renames'] ?? 0) + 1 }),
};

/** The event store as EventStoreDB's adapter shows it: it cannot count the events after a position. */
function uncounting(events: EventStore): EventStore {
  return new Proxy(events, {
    get(target, property) {
      if (property === 'countEventsAfter') return async () => null;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe('Readiness', () => {
  describe('of read models a projector trails', () => {
    let dir: ReturnType<typeof makeTempDir>;
    let db: SqliteDatabase;
    let events: SqliteEventStore;
    let readModels: SqliteReadModelStore;
    let clock: TestClock;
    beforeEach(async () => {
      dir = makeTempDir('vigil-readiness');
      db = openSqliteDatabase(`${dir.path}/vigil.db`);
      clock = new TestClock();
      events = new SqliteEventStore(db, { clock: clock.now });
      readModels = new SqliteReadModelStore(db);
    });
    afterEach(async () => {
      await events.close();
      db.close();
      dir.remove();
    });

    const rename = async (n: number) =>
      (
        await events.appendToStream('project-a', [
          { type: 'ProjectUpdated', data: { project_id: 'a', name: `name ${n}`, description: '', updated_at: clock.now().toISOString() } },
        ])
      ).position;
    const projectUntil = (until?: number) => new Projector(events, readModels, [renameCounter]).catchUp(until === undefined ? {} : { until });
    const readiness = (store: EventStore = events) =>
      checkReadiness({
        events: store,
        readModels,
        projections: [renameCounter],
        maxLagEvents: 3,
        maxLagSeconds: 60,
        clock: clock.now,
        timeoutMs: 2000,
        onError: () => {},
      });

    it('counts the events the read models lack, not the log positions between their checkpoint and the head', async () => {
      await rename(1);
      await projectUntil();
      // Twenty events the read models will never see: their stream is deleted before the projector reads it.
      for (let n = 0; n < 20; n++) await events.appendToStream('scratch-1', [{ type: 'ProjectUpdated', data: { project_id: 'scratch', name: `${n}`, description: '', updated_at: clock.now().toISOString() } }]);
      await events.deleteStream('scratch-1');
      await rename(2);
      const report = await readiness();
      const { event_store: log, read_store: checkpoints } = report.checks;
      if (!log.ok || !checkpoints.ok) expect.fail('both stores answer');
      expect(Number(log['head_position']) - Number(checkpoints['committed_position']), 'positions apart').to.be.greaterThan(3);
      expect(report.ready).to.equal(true);
      expect(report.checks.projector).to.deep.equal({ ok: true, lag_events: 1, max_lag_events: 3, lag_seconds: 0, max_lag_seconds: 60 });
    });

    it('is not ready while a lagging projector trails by more events than the bound, and ready again once within it', async () => {
      const positions = [];
      for (let n = 1; n <= 10; n++) positions.push(await rename(n));
      await projectUntil(positions[2]);
      const behind = await readiness();
      expect(behind.ready).to.equal(false);
      expect(behind.checks.projector).to.deep.equal({ ok: false, error: 'read models are more than 3 events behind the log' });

      await projectUntil(positions[6]);
      const within = await readiness();
      expect(within.ready).to.equal(true);
      expect(within.checks.projector).to.include({ ok: true, lag_events: 3 });

      await projectUntil();
      expect((await readiness()).checks.projector).to.include({ ok: true, lag_events: 0 });
    });

    it('is not ready once the oldest event the read models lack was recorded longer ago than the bound in seconds, however few they lack', async () => {
      await rename(1);
      clock.advance(30_000);
      expect((await readiness()).checks.projector).to.deep.equal({ ok: true, lag_events: 1, max_lag_events: 3, lag_seconds: 30, max_lag_seconds: 60 });
      clock.advance(31_500);
      const stale = await readiness();
      expect(stale.ready).to.equal(false);
      expect(stale.checks.projector).to.deep.equal({ ok: false, error: 'read models lack an event recorded 61.5 s ago, more than 60 s' });
      await projectUntil();
      expect((await readiness()).checks.projector).to.include({ ok: true, lag_seconds: 0 });
    });

    it('bounds the lag in time alone where the log cannot count its events (EventStoreDB)', async () => {
      for (let n = 1; n <= 10; n++) await rename(n);
      const fresh = await readiness(uncounting(events));
      expect(fresh.ready).to.equal(true);
      expect(fresh.checks.projector).to.deep.equal({ ok: true, lag_seconds: 0, max_lag_seconds: 60 });
      clock.advance(61_000);
      expect((await readiness(uncounting(events))).checks.projector.ok).to.equal(false);
    });
  });
});
