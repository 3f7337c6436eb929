import { expect } from 'chai';
import type { Caller } from '../../../src/domain/access/authorize.js';
import { refuseMint } from '../../../src/domain/access/key-power.js';

const now = '2026-03-01T12:00:00.000Z';
const inDays = (days: number) => new Date(Date.parse(now) + days * 86_400_000).toISOString();
const wanted = { kind: 'ACCOUNT' as const, scopes: ['read' as const], projectId: null, expiresAt: inDays(90) };

describe('minting a key', () => {
  it('refuses a key that would outlive the key that mints it', () => {
    const byKey: Caller = { userId: 'u1', apiKeyId: 'k1', sessionRef: null, kind: 'ACCOUNT', scopes: ['read'], projectId: null, expiresAt: inDays(30) };
    expect(refuseMint(byKey, wanted, null)?.message).to.equal('a new API key cannot outlive the key that creates it');
  });

  it('lets a person signed in to the console (no key; the session ends in hours) mint a key for 90 days', () => {
    const person: Caller = { userId: 'u1', apiKeyId: null, sessionRef: 's1', kind: 'ACCOUNT', scopes: ['read'], projectId: null, expiresAt: inDays(0.5) };
    expect(refuseMint(person, wanted, null)).to.equal(null);
  });
});
