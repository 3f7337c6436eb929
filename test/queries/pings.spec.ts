import { expect } from 'chai';
import { auditEventsProjection } from '../../projections/audit-events.js';
import type { PingKind } from '../../src/domain/monitors/pings.js';
import type { JsonObject } from '../../src/eventstore/event-store.js';
import { Projector } from '../../src/projector/projector.js';
import { getPing, pingPage, recentPings } from '../../src/queries/pings.js';
import { type EmbeddedStores, openEmbeddedStores } from '../support/embedded-stores.js';
import { checkCompleted, monitorCreated, pingReceived } from '../support/recorded-events.js';

const ids = { monitor_id: 'm1', project_id: 'p1' };

function ping(n: number, event: PingKind, receivedAt: string): JsonObject {
  return pingReceived(ids, receivedAt, {
    ping_id: `ping-${n}`, event, exit_code: event === 'FAILURE' ? 1 : null, message: `ping ${n}`, request_ip: '127.0.0.1', request_ua: 'curl/8',
  });
}

describe('The ping history, read from the log', () => {
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
    const { pings, total } = await pingPage(stores.events, 'm1', {}, { page: 1, limit: 10 });
    expect(total).to.equal(2);
    expect(pings.map((p) => [p.ping_id, p.seq, p.event, p.created_at])).to.deep.equal([
      ['ping-2', 2, 'FAILURE', '2026-11-21T00:03:00.000Z'],
      ['ping-0', 0, 'START', '2026-11-21T00:01:00.000Z'],
    ]);
    expect(pings[0]).to.deep.include({ exit_code: 1, message: 'ping 2', request_ip: '127.0.0.1', request_ua: 'curl/8', payload_truncated: false });
  });

  it('filters on the fields of the ping', async () => {
    const failures = await pingPage(stores.events, 'm1', { event: { $in: ['FAILURE'] } }, { page: 1, limit: 10 });
    expect(failures.pings.map((p) => p.ping_id)).to.deep.equal(['ping-2']);
    const early = await pingPage(stores.events, 'm1', { created_at: { $lte: '2026-11-21T00:02:00.000Z' } }, { page: 1, limit: 10 });
    expect(early.pings.map((p) => p.ping_id)).to.deep.equal(['ping-0']);
    expect((await recentPings(stores.events, 'm1', '2026-11-21T00:02:00.000Z', 10)).map((p) => p.ping_id)).to.deep.equal(['ping-2']);
    expect((await getPing(stores.events, 'm1', 'ping-0'))?.seq).to.equal(0);
    expect(await getPing(stores.events, 'm1', 'other')).to.equal(null);
  });

  it('holds a ping as soon as the log does, before any projector has run', async () => {
    await append('pings-m1', 'PingReceived', ping(3, 'SUCCESS', '2026-11-21T00:04:00.000Z'));
    expect((await pingPage(stores.events, 'm1', {}, { page: 1, limit: 1 })).pings.map((p) => p.ping_id)).to.deep.equal(['ping-3']);
  });

  it('pages newest first and counts every match', async () => {
    for (let n = 3; n < 8; n++) await append('pings-m1', 'PingReceived', ping(n, 'LOG', `2026-11-21T00:0${n + 1}:00.000Z`));
    const second = await pingPage(stores.events, 'm1', {}, { page: 2, limit: 3 });
    expect(second.total).to.equal(7);
    expect(second.pings.map((p) => p.ping_id)).to.deep.equal(['ping-4', 'ping-3', 'ping-2']);
  });

  it("keeps only what the log's retention keeps", async () => {
    await stores.events.setStreamMaxCount('pings-m1', 2);
    await append('pings-m1', 'PingReceived', ping(3, 'SUCCESS', '2026-11-21T00:04:00.000Z'));
    const { pings, total } = await pingPage(stores.events, 'm1', {}, { page: 1, limit: 10 });
    expect(pings.map((p) => p.ping_id)).to.deep.equal(['ping-3', 'ping-2']);
    expect(total).to.equal(2);
    expect(await getPing(stores.events, 'm1', 'ping-0')).to.equal(null);
  });

  it('keeps no copy of the pings in the history read model', async () => {
    expect(await stores.readModels.count('audit_events', { type: 'PingReceived' })).to.equal(0);
    expect(await stores.readModels.count('audit_events', { type: 'CheckCompleted' })).to.equal(1);
  });
});
