import { expect } from 'chai';
import { auditEventsProjection } from '../../projections/audit-events.js';
import type { PingKind } from '../../src/domain/monitors/pings.js';
import type { JsonObject } from '../../src/eventstore/event-store.js';
import { Projector } from '../../src/projector/projector.js';
import { NEWEST_FIRST, getPing, pingEntries, pingPage, recentPings } from '../../src/queries/pings.js';
import { type EmbeddedStores, openEmbeddedStores } from '../support/embedded-stores.js';
import { checkCompleted, monitorCreated, pingReceived } from '../support/recorded-events.js';

const ids = { monitor_id: 'm1', project_id: 'p1' };

function ping(n: number, event: PingKind, receivedAt: string): JsonObject {
  return pingReceived(ids, receivedAt, {
    ping_id: `ping-${n}`, event, exit_code: event === 'FAILURE' ? 1 : null, message: `ping ${n}`, request_ip: '127.0.0.1', request_ua: 'curl/8',
  });
}

describe('The ping history, read from the history entries', () => {
  let stores: EmbeddedStores;
  beforeEach(() => (stores = openEmbeddedStores()));
  afterEach(() => stores.dispose());

  const append = (stream: string, type: string, data: JsonObject) => stores.events.appendToStream(stream, [{ type, data }]);
  const project = () => new Projector(stores.events, stores.readModels, [auditEventsProjection]).catchUp();

  beforeEach(async () => {
    await append('monitor-m1', 'MonitorCreated', monitorCreated(ids, '2026-11-21T00:00:00.000Z'));
    await append('pings-m1', 'PingReceived', ping(0, 'START', '2026-11-21T00:01:00.000Z'));
    // A check result shares the stream of pings (and its retention) but is no ping.
    await append('pings-m1', 'CheckCompleted', checkCompleted(ids, '2026-11-21T00:01:30.000Z', { check_id: 'c1' }));
    await append('monitor-m1', 'MonitorPaused', { ...ids, paused_at: '2026-11-21T00:02:00.000Z' });
    await append('pings-m1', 'PingReceived', ping(2, 'FAILURE', '2026-11-21T00:03:00.000Z'));
    await append('pings-m2', 'PingReceived', { ...ping(0, 'SUCCESS', '2026-11-21T00:03:30.000Z'), monitor_id: 'm2', ping_id: 'other' });
    await project();
  });

  it("lists only the monitor's pings, newest first, each as the history API shows it, with the count of all", async () => {
    const { pings, total } = await pingPage(stores.readModels, 'm1', {}, { page: 1, limit: 10 });
    expect(total).to.equal(2);
    expect(pings.map((p) => [p.ping_id, p.seq, p.event, p.created_at])).to.deep.equal([
      ['ping-2', 2, 'FAILURE', '2026-11-21T00:03:00.000Z'],
      ['ping-0', 0, 'START', '2026-11-21T00:01:00.000Z'],
    ]);
    expect(pings[0]).to.deep.include({ exit_code: 1, message: 'ping 2', request_ip: '127.0.0.1', request_ua: 'curl/8', payload_truncated: false });
  });

  it('filters on the fields of the ping inside the entry', async () => {
    const failures = await pingPage(stores.readModels, 'm1', { event: { $in: ['FAILURE'] } }, { page: 1, limit: 10 });
    expect(failures.pings.map((p) => p.ping_id)).to.deep.equal(['ping-2']);
    const early = await pingPage(stores.readModels, 'm1', { created_at: { $lte: '2026-11-21T00:02:00.000Z' } }, { page: 1, limit: 10 });
    expect(early.pings.map((p) => p.ping_id)).to.deep.equal(['ping-0']);
    expect((await recentPings(stores.readModels, 'm1', '2026-11-21T00:02:00.000Z', 10)).map((p) => p.ping_id)).to.deep.equal(['ping-2']);
    expect((await getPing(stores.readModels, 'm1', 'ping-0'))?.seq).to.equal(0);
    expect(await getPing(stores.readModels, 'm1', 'other')).to.equal(null);
  });

  it("reads only the entries of the monitor's stream of pings, through their ids: its other events cost nothing", async () => {
    const plan = (await stores.readModels.queryPlan('audit_events', pingEntries('m1', { run_id: 'r' }), { sort: NEWEST_FIRST })).join(' | ');
    expect(plan).to.match(/USING INDEX sqlite_autoindex_rm_audit_events_1 \(id>\? AND id<\?\)/);
    expect(plan).not.to.match(/SCAN rm_audit_events(?! USING)/);
  });
});
