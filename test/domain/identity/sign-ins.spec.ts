import { expect } from 'chai';
import { signInDecider, signInStream } from '../../../src/domain/identity/sign-ins.js';
import { deciderSpec } from '../../support/decider.js';

const { given } = deciderSpec(signInDecider);
const now = '2026-11-28T18:00:00.000Z';
const user_id = 'u-1';
const where = { client_address: '203.0.113.9', user_agent: 'Mozilla/5.0' };

describe('Sign-in record', () => {
  it('records a sign-in with its method and where it came from, and no key for a person', () => {
    given([]).when({ type: 'RecordSignIn', user_id, session_ref: 's-1', method: 'password', second_factor: null, api_key_id: 'k-1', ...where, now }).then([
      { type: 'UserSignedIn', data: { user_id, session_ref: 's-1', method: 'password', second_factor: null, api_key_id: null, ...where, signed_in_at: now } },
    ]);
  });

  it('names the key of an API-key sign-in', () => {
    given([]).when({ type: 'RecordSignIn', user_id, session_ref: 's-1', method: 'api_key', second_factor: null, api_key_id: 'k-1', ...where, now })
      .thenMatches(([event]) => event?.type === 'UserSignedIn' && event.data.api_key_id === 'k-1');
  });

  it('records a failure for an email that names no one without any user, and clips what the client sent', () => {
    given([]).when({ type: 'RecordSignInFailure', user_id: null, method: 'password', reason: 'unknown_account', client_address: '203.0.113.9', user_agent: `evil\u0000\n${'x'.repeat(400)}`, now })
      .thenMatches(([event]) => event?.type === 'UserSignInFailed' && event.data.user_id === null && event.data.user_agent?.length === 300 && !/[\u0000\n]/.test(event.data.user_agent));
  });

  it('refuses a method it does not know', () => {
    given([]).when({ type: 'RecordSignIn', user_id, session_ref: 's-1', method: 'carrier_pigeon' as 'password', second_factor: null, api_key_id: null, ...where, now })
      .thenRefuses('invalid', /unknown sign-in method/);
  });

  it('records each ended session once, and nothing for none', () => {
    given([]).when({ type: 'RecordSessionsEnded', user_id, session_refs: ['s-1', 's-2', 's-1'], reason: 'password_changed', now }).then([
      { type: 'UserSessionEnded', data: { user_id, session_ref: 's-1', reason: 'password_changed', ended_at: now } },
      { type: 'UserSessionEnded', data: { user_id, session_ref: 's-2', reason: 'password_changed', ended_at: now } },
    ]);
    given([]).when({ type: 'RecordSessionsEnded', user_id, session_refs: [], reason: 'password_changed', now }).then([]);
  });

  it('keeps a user’s record apart from the failures of unknown emails', () => {
    expect(signInStream('u-1')).to.equal('signins-u-1');
    expect(signInStream(null)).to.equal('signins-unknown');
  });
});
