import { expect } from 'chai';
import { Secret, TOTP } from 'otpauth';
import { hashRecoveryCode, newRecoveryCodes } from '../../src/app/recovery-codes.js';
import { SecretBox } from '../../src/app/secret-box.js';
import { newTotpEnrolment, openTotpEnrolment, openTotpSeed, sealTotpSeed, totpStepOf } from '../../src/app/totp.js';

const now = new Date('2026-11-21T12:00:10.000Z');
const codeAt = (seed: string, at: Date) => new TOTP({ secret: Secret.fromBase32(seed) }).generate({ timestamp: at.getTime() });

describe('TOTP', () => {
  const secrets = SecretBox.random();

  it('gives a seed that only its person can confirm, for 15 minutes, with a URI an app reads', () => {
    const enrolment = newTotpEnrolment(secrets, 'u1', 'ada@example.com', now);
    expect(enrolment.uri).to.match(/^otpauth:\/\/totp\/Vigil:ada%40example\.com\?issuer=Vigil&secret=[A-Z2-7]+&algorithm=SHA1&digits=6&period=30$/);
    expect(enrolment.pending).to.not.contain(enrolment.secret);
    expect(openTotpEnrolment(secrets, enrolment.pending, 'u1', new Date(now.getTime() + 14 * 60_000))).to.equal(enrolment.secret);
    expect(openTotpEnrolment(secrets, enrolment.pending, 'u2', now)).to.equal(null);
    expect(openTotpEnrolment(secrets, enrolment.pending, 'u1', new Date(now.getTime() + 15 * 60_000))).to.equal(null);
    expect(openTotpEnrolment(SecretBox.random(), enrolment.pending, 'u1', now)).to.equal(null);
    expect(openTotpEnrolment(secrets, 'not sealed', 'u1', now)).to.equal(null);
  });

  it('accepts the code of the step before, now and after, and names the step; not two steps off', () => {
    const { secret } = newTotpEnrolment(secrets, 'u1', 'ada@example.com', now);
    const step = Math.floor(now.getTime() / 30_000);
    for (const offset of [-1, 0, 1]) expect(totpStepOf(secret, codeAt(secret, new Date(now.getTime() + offset * 30_000)), now)).to.equal(step + offset);
    expect(totpStepOf(secret, codeAt(secret, new Date(now.getTime() + 60_000)), now)).to.equal(null);
    expect(totpStepOf(secret, ` ${codeAt(secret, now).slice(0, 3)} ${codeAt(secret, now).slice(3)} `, now)).to.equal(step);
    expect(totpStepOf(secret, 'abcdef', now)).to.equal(null);
  });

  it('keeps the seed sealed in the log and opens it again', () => {
    const sealed = sealTotpSeed(secrets, 'JBSWY3DPEHPK3PXP');
    expect(sealed).to.match(/^v1\./).and.not.contain('JBSWY3DPEHPK3PXP');
    expect(openTotpSeed(secrets, sealed)).to.equal('JBSWY3DPEHPK3PXP');
  });
});

describe('Recovery codes', () => {
  it('makes ten distinct codes of 80 random bits, read the same whatever the case or dashes', () => {
    const codes = newRecoveryCodes();
    expect(new Set(codes).size).to.equal(10);
    for (const code of codes) expect(code).to.match(/^[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){3}$/);
    const code = codes[0]!;
    expect(hashRecoveryCode(code.toUpperCase().replace(/-/g, ' '))).to.equal(hashRecoveryCode(code));
    expect(hashRecoveryCode('0000-1111-0000-1111')).to.equal(hashRecoveryCode('oooo-iiii-OOOO-llll'));
    expect(hashRecoveryCode(code)).to.match(/^[0-9a-f]{64}$/);
  });
});
