import { expect } from 'chai';
import { admit } from '../../../src/domain/identity/sso-admission.js';

describe('admit (single sign-on)', () => {
  it('admits a verified email, lower-cased, with the person\'s names', () => {
    expect(admit({ sub: 's', email: 'Ada@Example.com', email_verified: true, given_name: 'Ada', family_name: 'Lovelace' }, null)).to.deep.equal({
      admitted: true, email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace',
    });
  });

  it('takes the full name when the provider sends no given or family name', () => {
    expect(admit({ sub: 's', email: 'a@example.com', email_verified: true, name: 'Ada L.' }, null)).to.include({ firstName: 'Ada L.', lastName: '' });
  });

  it('refuses an email the provider has not verified, or says nothing about', () => {
    expect(admit({ sub: 's', email: 'a@example.com', email_verified: false }, null)).to.deep.equal({ admitted: false, reason: 'unverified', email: 'a@example.com' });
    expect(admit({ sub: 's', email: 'a@example.com' }, null)).to.include({ admitted: false, reason: 'unverified' });
    expect(admit({ sub: 's', email: 'a@example.com', email_verified: 'true' }, null)).to.include({ admitted: false, reason: 'unverified' });
  });

  it('refuses a sign-in without an email', () => {
    expect(admit({ sub: 's', email_verified: true }, null)).to.deep.equal({ admitted: false, reason: 'no_email', email: null });
    expect(admit({ sub: 's', email: 'not an email', email_verified: true }, null)).to.include({ reason: 'no_email' });
  });

  it('refuses an email outside the allowed domains, matching the whole domain', () => {
    expect(admit({ sub: 's', email: 'a@example.com', email_verified: true }, ['example.com'])).to.include({ admitted: true });
    expect(admit({ sub: 's', email: 'a@EXAMPLE.com', email_verified: true }, ['example.com'])).to.include({ admitted: true });
    expect(admit({ sub: 's', email: 'a@evil-example.com', email_verified: true }, ['example.com'])).to.deep.equal({ admitted: false, reason: 'domain', email: 'a@evil-example.com' });
    expect(admit({ sub: 's', email: 'a@sub.example.com', email_verified: true }, ['example.com'])).to.include({ reason: 'domain' });
  });
});
