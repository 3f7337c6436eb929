import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { MongoReadModelStore } from '../../src/readstore/mongo-read-model-store.js';
import type { DocumentWrite } from '../../src/readstore/read-model-store.js';

const mongoUrl = process.env['VIGIL_MONGODB_URL'];

if (mongoUrl) {
  describe('MongoReadModelStore', () => {
    let store: MongoReadModelStore;
    let client: MongoClient;
    beforeEach(async () => {
      store = await MongoReadModelStore.connect(mongoUrl, `vigil_rm_${randomUUID().slice(0, 8)}`);
      client = await new MongoClient(mongoUrl).connect();
    });
    afterEach(async () => {
      await store.dropDatabase();
      await store.close();
      await client.close();
    });

    /** Write commands the server has run so far (each carries up to 100,000 statements). */
    async function writeCommands(): Promise<number> {
      const status = await client.db('admin').command({ serverStatus: 1 });
      const commands = status['metrics']['commands'];
      return ['insert', 'update', 'delete'].reduce((sum, name) => sum + Number(commands[name]?.total ?? 0), 0);
    }

    it('commits thousands of documents in a few bulk writes, not a round trip each', async () => {
      const specs = [{ name: 'pings', indexes: [{ fields: ['monitor_id'] }] }, { name: 'monitors', indexes: [] }];
      await store.ensureCollections(specs);
      await store.commit([{ collection: 'monitors', id: 'gone', position: 1, doc: { n: 0 } }], []);
      const writes: DocumentWrite[] = [];
      for (let n = 1; n <= 4000; n++) writes.push({ collection: 'pings', id: `p${n}`, position: 1 + n, doc: { monitor_id: `m${n % 10}`, n } });
      for (let n = 1; n <= 1000; n++) writes.push({ collection: 'monitors', id: `m${n}`, position: 4001 + n, doc: { n } });
      writes.push({ collection: 'monitors', id: 'gone', position: 5002, doc: null });
      const before = await writeCommands();

      await store.commit(writes, [{ name: 'pings', version: 1, position: 5002, expectedPosition: null }]);

      // One bulk write for the pings, one for the monitors' deletion and one for their documents, one for the checkpoint.
      expect((await writeCommands()) - before).to.be.at.most(4);
      expect(await store.count('pings')).to.equal(4000);
      expect(await store.count('monitors')).to.equal(1000);
      expect(await store.get('monitors', 'gone')).to.equal(null);
    });
  });
} else {
  describe('MongoReadModelStore', () => {
    it('is skipped: set VIGIL_MONGODB_URL to run it against a real server', function () {
      console.log('    (skipped: VIGIL_MONGODB_URL is not set, so the MongoDB adapter was not exercised)');
      this.skip();
    });
  });
}
