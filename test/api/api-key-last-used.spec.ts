import { expect } from 'chai';
import { apiKeyUseStream } from '../../src/domain/identity/api-key-use.js';
import { eventually } from '../support/eventually.js';
import { TestVigil } from '../support/test-vigil.js';

const HOUR = 60 * 60 * 1000;

describe('API keys: last used', () => {
  let vigil: TestVigil;
  let key: string;
  let keyId: string;
  before(async () => {
    vigil = await TestVigil.start();
    const userId = await vigil.user('last-used@example.com');
    await vigil.project(userId);
    key = await vigil.accountKey(userId, ['read']);
    const listed = await vigil.request('GET', '/v1/api-keys', { key });
    keyId = listed.body.api_keys[0].id;
  });
  after(() => vigil.stop());

  const lastUsed = async (): Promise<string | null> => {
    await vigil.settle();
    const listed = await vigil.request('GET', '/v1/api-keys', { key });
    return listed.body.api_keys.find((k: { id: string }) => k.id === keyId).last_used_at;
  };
  const usesInLog = async () => (await vigil.commands.events.readStream(apiKeyUseStream(keyId))).length;

  it('records the first use, not a second within the hour, and again an hour after, keeping only the newest in the log', async () => {
    const first = vigil.clock.now().toISOString();
    await eventually(async () => expect(await lastUsed()).to.equal(first));
    expect(await usesInLog()).to.equal(1);

    vigil.clock.advance(HOUR - 1);
    for (let i = 0; i < 5; i += 1) expect((await vigil.request('GET', '/v1/projects', { key })).status).to.equal(200);
    await vigil.settle();
    expect(await lastUsed()).to.equal(first);
    const [kept] = await vigil.commands.events.readStream(apiKeyUseStream(keyId));
    expect(kept!.revision).to.equal(0);

    vigil.clock.advance(1);
    const again = vigil.clock.now().toISOString();
    await vigil.request('GET', '/v1/projects', { key });
    await eventually(async () => expect(await lastUsed()).to.equal(again));
    const log = await vigil.commands.events.readStream(apiKeyUseStream(keyId));
    expect(log.map((e) => [e.revision, e.data['at']])).to.deep.equal([[1, again]]);
  });

  it('is null for a key never used', async () => {
    const userId = await vigil.user('unused@example.com');
    await vigil.project(userId);
    await vigil.accountKey(userId, ['read']);
    const used = await vigil.accountKey(userId, ['read']);
    await vigil.request('GET', '/v1/projects', { key: used });
    await eventually(async () => {
      await vigil.settle();
      const listed = (await vigil.request('GET', '/v1/api-keys', { key: used })).body.api_keys as Array<{ key_preview: string; last_used_at: string | null }>;
      expect(listed.map((k) => k.last_used_at !== null).sort()).to.deep.equal([false, true]);
      expect(listed.find((k) => k.last_used_at !== null)!.key_preview).to.equal(used.slice(0, listed[0]!.key_preview.length));
    });
  });
});
