import { expect } from 'chai';
import { openSqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { SqliteEventStore } from '../../src/eventstore/sqlite-event-store.js';
import { LOG_INTEGRITY_STREAM } from '../../src/domain/audit/log-integrity.js';
import { runCliCaptured } from '../support/cli-run.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../support/test-vigil.js';

describe('The record of log integrity checks', function () {
  this.timeout(60_000);

  it('records what vigil verify found in the log, which a server then keeps as the last check', async () => {
    const clock = new TestClock();
    const first = await TestVigil.start({ clock });
    const key = await first.accountKey(await first.user('owner@example.com'), ALL_SCOPES);
    expect((await first.request('POST', '/v1/projects', { key, body: { name: 'Jobs' } })).status).to.equal(201);
    await first.settle();
    await first.stopKeepingData();

    const verified = await runCliCaptured(['verify'], { VIGIL_DATA_DIR: first.dataDir }, clock.now);
    expect(verified.code).to.equal(0);
    const report = JSON.parse(verified.stdout[0]!);

    const db = openSqliteDatabase(`${first.dataDir}/vigil.db`);
    const [recorded] = await new SqliteEventStore(db).readStream(LOG_INTEGRITY_STREAM);
    db.close();
    expect(recorded?.type).to.equal('LogIntegrityChecked');
    expect(recorded?.data).to.deep.include({
      ok: true, events_checked: report.log.events_checked, head_position: report.log.events_checked, head_chain: report.log.head_chain,
      first_break_position: null, read_models_ok: true, checked_by: 'cli', user_id: null, checked_at: clock.now().toISOString(),
    });

    const again = await TestVigil.reopen(first.dataDir, first.env, clock);
    try {
      await again.settle();
      const stored = await again.vigil.stores.readModels.get<Record<string, unknown>>('log_integrity', 'latest');
      expect(stored?.doc).to.deep.include({ ok: true, checked_by: 'cli', head_position: report.log.events_checked, position: recorded!.position });
    } finally {
      await again.stop();
    }
  });
});
