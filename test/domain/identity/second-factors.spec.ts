import { expect } from 'chai';
import {
  type SecondFactorCommand, type SecondFactorEvent, MAX_SECOND_FACTOR_FAILURES, hasSecondFactor, secondFactorsDecider, secondStepLockedUntil,
} from '../../../src/domain/identity/second-factors.js';
import { deciderSpec } from '../../support/decider.js';

const { given } = deciderSpec(secondFactorsDecider);
const now = '2026-11-21T10:00:00.000Z';
const later = '2026-11-21T10:05:00.000Z';
const user_id = 'u-1';
const hashes = Array.from({ length: 10 }, (_, i) => `hash-${i}`);
const otherHashes = Array.from({ length: 10 }, (_, i) => `other-${i}`);

const totpAdded: SecondFactorEvent = { type: 'TotpFactorAdded', data: { user_id, factor_id: 'f-totp', name: 'Phone', seed_sealed: 'v1.sealed', confirmed_step: 100, added_at: now } };
const codesGenerated: SecondFactorEvent = { type: 'RecoveryCodesGenerated', data: { user_id, code_hashes: hashes, generated_at: now } };
const passkeyAdded = (factor_id: string, credential_id: string, counter = 0): SecondFactorEvent => ({
  type: 'PasskeyAdded', data: { user_id, factor_id, name: 'Laptop', credential_id, public_key: 'pk', counter, transports: ['internal'], added_at: now },
});
const failed = (failed_at: string): SecondFactorEvent => ({ type: 'SecondFactorFailed', data: { user_id, method: 'totp', reason: 'wrong code', client_address: '127.0.0.1', failed_at } });

const addTotp = (overrides: Partial<Extract<SecondFactorCommand, { type: 'AddTotpFactor' }>> = {}): SecondFactorCommand => ({
  type: 'AddTotpFactor', user_id, factor_id: 'f-totp', name: 'Phone', seed_sealed: 'v1.sealed', confirmed_step: 100, recovery_code_hashes: hashes, now, ...overrides,
});
const addPasskey = (overrides: Partial<Extract<SecondFactorCommand, { type: 'AddPasskey' }>> = {}): SecondFactorCommand => ({
  type: 'AddPasskey', user_id, factor_id: 'f-key', name: 'Laptop', credential_id: 'cred-1', public_key: 'pk', counter: 0, transports: ['internal'],
  recovery_code_hashes: otherHashes, now, ...overrides,
});
const useTotp = (step: number, at = later): SecondFactorCommand => ({ type: 'UseTotp', user_id, step, client_address: '127.0.0.1', now: at });

describe('Second factors', () => {
  describe('adding an authenticator app', () => {
    it('records the sealed seed and, as the first factor, a set of recovery codes', () =>
      given([]).when(addTotp()).then([totpAdded, codesGenerated]));

    it('keeps the recovery codes a person already has when a second factor is added', () =>
      given([passkeyAdded('f-key', 'cred-1'), codesGenerated]).when(addTotp({ recovery_code_hashes: otherHashes })).then([totpAdded]));

    it('refuses a second authenticator app; the same one again changes nothing', () => {
      given([totpAdded, codesGenerated]).when(addTotp({ factor_id: 'f-other' })).thenRefuses('conflict', /already set up/);
      given([totpAdded, codesGenerated]).when(addTotp()).then([]);
    });

    it('refuses a set of recovery codes that is not ten distinct codes', () =>
      given([]).when(addTotp({ recovery_code_hashes: ['a', 'a', ...hashes.slice(2)] })).thenRefuses('invalid', /10 distinct codes/));
  });

  describe('using an authenticator app', () => {
    it('accepts a code of a later step than any used', () =>
      given([totpAdded]).when(useTotp(101)).then([
        { type: 'SecondFactorUsed', data: { user_id, factor_id: 'f-totp', method: 'totp', totp_step: 101, passkey_counter: null, client_address: '127.0.0.1', used_at: later } },
      ]));

    it('refuses the code that confirmed it, a replayed code and a code of an earlier step', () => {
      given([totpAdded]).when(useTotp(100)).thenRefuses('invalid', /already been used/);
      const used: SecondFactorEvent = { type: 'SecondFactorUsed', data: { user_id, factor_id: 'f-totp', method: 'totp', totp_step: 102, passkey_counter: null, client_address: null, used_at: now } };
      given([totpAdded, used]).when(useTotp(102)).thenRefuses('invalid', /already been used/);
      given([totpAdded, used]).when(useTotp(101)).thenRefuses('invalid', /already been used/);
      given([totpAdded, used]).when(useTotp(103)).thenEmits(['SecondFactorUsed']);
    });

    it('refuses a code when no app is set up', () => given([]).when(useTotp(5)).thenRefuses('not_found', /no authenticator app/));
  });

  describe('passkeys', () => {
    it('records a passkey, with recovery codes when it is the first factor', () =>
      given([]).when(addPasskey()).thenEmits(['PasskeyAdded', 'RecoveryCodesGenerated']));

    it('refuses a credential already added', () =>
      given([passkeyAdded('f-key', 'cred-1')]).when(addPasskey({ factor_id: 'f-new' })).thenRefuses('conflict', /already added/));

    it('accepts a use whose counter moves forward, and one from an authenticator that keeps no counter', () => {
      const use = (counter: number): SecondFactorCommand => ({ type: 'UsePasskey', user_id, credential_id: 'cred-1', counter, client_address: null, now: later });
      given([passkeyAdded('f-key', 'cred-1', 5)]).when(use(6)).then([
        { type: 'SecondFactorUsed', data: { user_id, factor_id: 'f-key', method: 'passkey', totp_step: null, passkey_counter: 6, client_address: null, used_at: later } },
      ]);
      given([passkeyAdded('f-key', 'cred-1', 0)]).when(use(0)).thenEmits(['SecondFactorUsed']);
    });

    it('refuses a counter that went backwards or stood still', () => {
      const use = (counter: number): SecondFactorCommand => ({ type: 'UsePasskey', user_id, credential_id: 'cred-1', counter, client_address: null, now: later });
      given([passkeyAdded('f-key', 'cred-1', 5)]).when(use(5)).thenRefuses('invalid', /counter went backwards/);
      given([passkeyAdded('f-key', 'cred-1', 5)]).when(use(2)).thenRefuses('invalid', /counter went backwards/);
      const used: SecondFactorEvent = { type: 'SecondFactorUsed', data: { user_id, factor_id: 'f-key', method: 'passkey', totp_step: null, passkey_counter: 9, client_address: null, used_at: now } };
      given([passkeyAdded('f-key', 'cred-1', 5), used]).when(use(8)).thenRefuses('invalid', /counter went backwards/);
    });

    it('refuses a passkey that is not the account’s', () =>
      given([passkeyAdded('f-key', 'cred-1')])
        .when({ type: 'UsePasskey', user_id, credential_id: 'cred-2', counter: 1, client_address: null, now })
        .thenRefuses('not_found', /not one of this account/));
  });

  describe('recovery codes', () => {
    const useCode = (code_hash: string): SecondFactorCommand => ({ type: 'UseRecoveryCode', user_id, code_hash, client_address: '10.0.0.1', now: later });

    it('accepts each code once, counting those left', () => {
      given([totpAdded, codesGenerated]).when(useCode('hash-3')).then([
        { type: 'RecoveryCodeUsed', data: { user_id, code_index: 3, codes_left: 9, client_address: '10.0.0.1', used_at: later } },
      ]);
      const used: SecondFactorEvent = { type: 'RecoveryCodeUsed', data: { user_id, code_index: 3, codes_left: 9, client_address: null, used_at: now } };
      given([totpAdded, codesGenerated, used]).when(useCode('hash-3')).thenRefuses('invalid', /not valid, or has been used/);
    });

    it('forgets the old codes when new ones are generated', () => {
      const regenerated: SecondFactorEvent = { type: 'RecoveryCodesGenerated', data: { user_id, code_hashes: otherHashes, generated_at: later } };
      given([totpAdded, codesGenerated, regenerated]).when(useCode('hash-0')).thenRefuses('invalid', /not valid/);
      given([totpAdded, codesGenerated, regenerated]).when(useCode('other-0')).thenEmits(['RecoveryCodeUsed']);
    });

    it('regenerates codes only while a factor is set up', () => {
      given([totpAdded, codesGenerated]).when({ type: 'GenerateRecoveryCodes', user_id, recovery_code_hashes: otherHashes, now: later }).then([
        { type: 'RecoveryCodesGenerated', data: { user_id, code_hashes: otherHashes, generated_at: later } },
      ]);
      const removed: SecondFactorEvent = { type: 'SecondFactorRemoved', data: { user_id, factor_id: 'f-totp', method: 'totp', removed_at: later } };
      given([totpAdded, codesGenerated, removed]).when({ type: 'GenerateRecoveryCodes', user_id, recovery_code_hashes: otherHashes, now: later }).thenRefuses('invalid', /add one first/);
      given([totpAdded, codesGenerated, removed]).when(useCode('hash-1')).thenRefuses('not_found', /no second factor/);
    });
  });

  describe('removing a factor', () => {
    it('records which kind it was; an unknown one is not found', () => {
      given([totpAdded, passkeyAdded('f-key', 'cred-1')]).when({ type: 'RemoveSecondFactor', user_id, factor_id: 'f-key', now: later }).then([
        { type: 'SecondFactorRemoved', data: { user_id, factor_id: 'f-key', method: 'passkey', removed_at: later } },
      ]);
      given([totpAdded]).when({ type: 'RemoveSecondFactor', user_id, factor_id: 'f-gone', now: later }).thenRefuses('not_found', /not found/);
    });

    it('leaves no factor after the last one goes, and a new first factor brings new recovery codes', () => {
      const events: SecondFactorEvent[] = [totpAdded, codesGenerated, { type: 'SecondFactorRemoved', data: { user_id, factor_id: 'f-totp', method: 'totp', removed_at: later } }];
      expect(hasSecondFactor(events.reduce(secondFactorsDecider.evolve, secondFactorsDecider.initialState()))).to.equal(false);
      given(events).when(addPasskey()).thenEmits(['PasskeyAdded', 'RecoveryCodesGenerated']);
    });
  });

  describe('failures', () => {
    const fiveFailures = Array.from({ length: MAX_SECOND_FACTOR_FAILURES }, (_, i) => failed(`2026-11-21T10:0${i}:00.000Z`));

    it('records a failure with its method and address', () =>
      given([totpAdded]).when({ type: 'RecordSecondFactorFailure', user_id, method: 'recovery_code', reason: 'unknown code', client_address: '10.0.0.1', now }).then([
        { type: 'SecondFactorFailed', data: { user_id, method: 'recovery_code', reason: 'unknown code', client_address: '10.0.0.1', failed_at: now } },
      ]));

    it('refuses every second step for 15 minutes after five failures in a row, even a right code', () => {
      given([totpAdded, codesGenerated, ...fiveFailures]).when(useTotp(200, '2026-11-21T10:10:00.000Z')).thenRefuses('rate_limited', /try again in 5 min/);
      given([totpAdded, codesGenerated, ...fiveFailures]).when({ type: 'UseRecoveryCode', user_id, code_hash: 'hash-0', client_address: null, now: '2026-11-21T10:10:00.000Z' }).thenRefuses('rate_limited', /too many/);
      given([totpAdded, ...fiveFailures]).when(useTotp(200, '2026-11-21T10:15:00.000Z')).thenEmits(['SecondFactorUsed']);
    });

    it('starts counting again after a success', () => {
      const used: SecondFactorEvent = { type: 'SecondFactorUsed', data: { user_id, factor_id: 'f-totp', method: 'totp', totp_step: 150, passkey_counter: null, client_address: null, used_at: later } };
      const state = [totpAdded, ...fiveFailures.slice(0, 4), used, failed(later)].reduce(secondFactorsDecider.evolve, secondFactorsDecider.initialState());
      expect(secondStepLockedUntil(state, later)).to.equal(null);
      expect(state.failures).to.deep.equal([later]);
    });
  });
});
