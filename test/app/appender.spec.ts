import { expect } from 'chai';
import { commandContext } from '../../src/app/context.js';
import type { Appender } from '../../src/app/appender.js';
import { WrongExpectedRevisionError } from '../../src/eventstore/event-store.js';
import { loadConfig } from '../../src/main/config.js';
import { type Stores, openStores } from '../../src/main/stores.js';
import { withoutMultiStreamAppend } from '../support/store-wrappers.js';
import { makeTempDir } from '../support/temp-dir.js';

/** A decision that read `read` (at revision 0) and writes one event to `written`, after `read` has moved on to revision 1. */
async function decideOnAStaleRead(stores: Stores, appender: Appender) {
  const [read, written] = ['read-a', 'written-a'];
  await stores.events.appendToStream(read, [{ type: 'Counted', data: { n: 0 } }, { type: 'Counted', data: { n: 1 } }]);
  const outcome = await appender
    .append([{ streamName: written, events: [{ type: 'Counted', data: { n: 2 } }], expectedRevision: 'no_stream' }], [{ streamName: read, expectedRevision: 0 }])
    .then((position) => ({ position }), (error: unknown) => ({ error }));
  return { outcome, recorded: await stores.events.readStream(written) };
}

describe('The Appender, chosen where the stores are wired', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let stores: Stores;
  beforeEach(async () => {
    dir = makeTempDir('vigil-appender');
    stores = await openStores(loadConfig({ VIGIL_DATA_DIR: dir.path }));
  });
  afterEach(async () => {
    await stores.close();
    dir.remove();
  });

  it('on the embedded store checks every stream a decision read, and records nothing when one moved', async () => {
    const { outcome, recorded } = await decideOnAStaleRead(stores, stores.appender);
    expect('error' in outcome && outcome.error).to.be.instanceOf(WrongExpectedRevisionError);
    expect(recorded).to.deep.equal([]);
    expect(stores.appender.monitor.checksEveryStream).to.equal(true);
  });

  it('on a store that cannot append to several streams at once (EventStoreDB) appends stream by stream, each on its own revision', async () => {
    const { appender } = commandContext(withoutMultiStreamAppend(stores.events));
    const { outcome, recorded } = await decideOnAStaleRead(stores, appender);
    expect(recorded.map((e) => e.data['n'])).to.deep.equal([2]);
    expect('position' in outcome && outcome.position).to.equal(recorded[0]!.position);
    expect(appender.monitor.checksEveryStream).to.equal(false);
  });

  it('built by hand around the embedded store, a context gets the same Appender the wiring chose', async () => {
    const { appender } = commandContext(stores.events);
    const { outcome, recorded } = await decideOnAStaleRead(stores, appender);
    expect('error' in outcome && outcome.error).to.be.instanceOf(WrongExpectedRevisionError);
    expect(recorded).to.deep.equal([]);
  });
});
