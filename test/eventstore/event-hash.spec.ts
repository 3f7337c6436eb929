import { expect } from 'chai';
import { chainHash, eventContent, eventHash } from '../../src/eventstore/event-hash.js';

describe('event hashes', () => {
  // Logs written by every earlier version must still verify: these digests are fixed, not derived.
  const content = eventContent({ stream: 'pings-m', revision: 0, id: 'e-1', type: 'PingReceived', created: '2026-11-22T00:00:00.000Z', data: '{"ok":true}', metadata: '{}' });

  it('hashes an event as SHA-256 of the previous hash in its stream, a newline and its content', () => {
    expect(content).to.equal('["pings-m",0,"e-1","PingReceived","2026-11-22T00:00:00.000Z","{\\"ok\\":true}","{}"]');
    expect(eventHash('', content)).to.equal('4515651eb80089ca29cc0dcb94bc9adb4b4c9debefbfe8993e7284fcbac149f2');
  });

  it('chains the log as SHA-256 of the previous chain value, a newline and the event hash', () => {
    expect(chainHash('', 'abc')).to.equal('f39d39bfc99287b848780d4110eb663f0e7c344ae41f46a390c4135b89dc2756');
  });
});
