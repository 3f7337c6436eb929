import { expect } from 'chai';
import { type EmailClaimEvent, emailClaimDecider, emailClaimStream } from '../../../src/domain/identity/email-claim.js';
import { deciderSpec } from '../../support/decider.js';

const { given } = deciderSpec(emailClaimDecider);
const T0 = '2026-11-21T10:00:00.000Z';
const T1 = '2026-11-21T10:05:00.000Z';
const claim = (user_id: string, email = 'ops@example.com') => ({ type: 'ClaimEmail' as const, email, user_id, now: T1 });
const claimed = (user_id: string, claimed_at = T0): EmailClaimEvent => ({ type: 'EmailClaimed', data: { email: 'ops@example.com', user_id, claimed_at } });

describe('Email claim', () => {
  it('lives in one stream per address, whatever its case or surrounding spaces', () => {
    expect(emailClaimStream(' Ops@Example.COM ')).to.equal('useremail-ops@example.com');
    expect(emailClaimStream('ops@example.com')).to.equal(emailClaimStream('OPS@example.com'));
  });

  it('gives a free address to the first user that claims it, recorded in lowercase', () => {
    given([]).when(claim('u-1', '  Ops@Example.com ')).then([claimed('u-1', T1)]);
  });

  it('records nothing when the same user claims the address again (a retried sign-up)', () => {
    given([claimed('u-1')]).when(claim('u-1')).then([]);
  });

  it('refuses an address another user holds, naming the address', () => {
    given([claimed('u-1')]).when(claim('u-2', 'Ops@Example.com')).thenRefuses('invalid', /a user with email Ops@Example.com already exists/);
  });
});
