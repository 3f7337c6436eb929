import { expect } from 'chai';
import { statSync } from 'node:fs';
import { loadConfig } from '../../src/main/config.js';
import { type Stores, type WalCheckpoints, openStores } from '../../src/main/stores.js';
import { eventually } from '../support/eventually.js';
import { makeTempDir } from '../support/temp-dir.js';

describe('openStores: who checkpoints the embedded WAL', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let stores: Stores | null = null;
  beforeEach(() => (dir = makeTempDir('vigil-stores-wal')));
  afterEach(async () => {
    await stores?.close();
    stores = null;
    dir.remove();
  });

  const open = async (walCheckpoints?: WalCheckpoints) => {
    stores = await openStores(loadConfig({ VIGIL_DATA_DIR: dir.path }), walCheckpoints ? { walCheckpoints } : {});
    return stores;
  };
  const autocheckpointPages = (opened: Stores) => Number(opened.sqliteDb!.pragma('wal_autocheckpoint', { simple: true }));
  /** 4 MB of events in one group commit: past SQLite's 1,000-page autocheckpoint. */
  const appendFourMegabytes = (opened: Stores) =>
    Promise.all(Array.from({ length: 1000 }, (_, i) => opened.events.appendToStream(`big-${i}`, [{ type: 'Padded', data: { big: 'x'.repeat(4000) } }])));
  const fileSize = (opened: Stores) => statSync(opened.sqlitePath!).size;

  it('leaves it to SQLite, inside the commits, unless told otherwise (the CLI, tests)', async () => {
    const opened = await open();
    expect(autocheckpointPages(opened)).to.equal(1000);
  });

  it('own-thread: turns that off and copies the WAL into the file on a thread of its own', async () => {
    const opened = await open('own-thread');
    expect(autocheckpointPages(opened)).to.equal(0);
    await appendFourMegabytes(opened);
    await eventually(() => expect(fileSize(opened)).to.be.above(4_000_000), 10_000);
  });

  it('by-another-thread: turns it off too (the thread that started a checkpointer covers this connection)', async () => {
    const opened = await open('by-another-thread');
    expect(autocheckpointPages(opened)).to.equal(0);
  });
});
