import { expect } from 'chai';
import { hashPassword, passwordProblem, verifyPassword } from '../../src/app/passwords.js';
import { toExported } from '../../src/audit/export.js';

describe('Passwords', function () {
  this.timeout(60_000);

  it('hashes with scrypt at N=2^15, r=8, p=1 and a salt of its own each time', async () => {
    const [a, b] = await Promise.all([hashPassword('correct horse battery'), hashPassword('correct horse battery')]);
    expect(a).to.match(/^\$scrypt\$ln=15,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(a).to.not.equal(b);
    expect(a).to.not.contain('correct horse');
  });

  it('verifies the right password only, and answers false for an account without one after hashing all the same', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(await verifyPassword('correct horse battery', stored)).to.equal(true);
    expect(await verifyPassword('correct horse batterY', stored)).to.equal(false);
    expect(await verifyPassword('correct horse battery', null)).to.equal(false);
    expect(await verifyPassword('correct horse battery', '$scrypt$ln=40,r=8,p=1$AAAA$AAAA')).to.equal(false);
    // A miss costs a hash too: no quicker than a wrong password (a tenth of it, for a loaded machine's noise).
    const time = async (stored: string | null) => {
      const started = performance.now();
      await verifyPassword('a guess of some length', stored);
      return performance.now() - started;
    };
    const wrong = await time(stored);
    expect(await time(null)).to.be.greaterThan(wrong / 10);
  });

  it('asks for 10 to 1024 characters, and nothing else', () => {
    expect(passwordProblem('short one')).to.equal('Use at least 10 characters');
    expect(passwordProblem('ten chars!')).to.equal(null);
    expect(passwordProblem('x'.repeat(1025))).to.equal('Use at most 1024 characters');
  });

  it('never exports a password or token hash', () => {
    const exported = toExported({
      id: 'e1', type: 'PasswordSet', streamName: 'user-u1', revision: 1, position: 9, created: '2026-11-28T10:00:00.000Z', metadata: {},
      data: { user_id: 'u1', password_hash: '$scrypt$ln=15,r=8,p=1$salt$hash', reason: 'reset', reset_token_hash: 'abc', set_at: '2026-11-28T10:00:00.000Z' },
    });
    expect(exported.data).to.deep.equal({ user_id: 'u1', password_hash: '[redacted]', reason: 'reset', reset_token_hash: '[redacted]', set_at: '2026-11-28T10:00:00.000Z' });
  });
});
