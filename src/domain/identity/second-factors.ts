import type { Decider, DomainEvent } from '../decider.js';
import { conflict, invalid, notFound, rateLimited } from '../errors.js';

/** How many codes a set of recovery codes holds. */
export const RECOVERY_CODE_COUNT = 10;
/** Passkeys a person may hold at once: enough for every device they own, few enough to list. */
export const MAX_PASSKEYS = 10;
/** Wrong second factors in a row, within the window, before the account's second step waits. */
export const MAX_SECOND_FACTOR_FAILURES = 5;
export const SECOND_FACTOR_FAILURE_WINDOW_MS = 15 * 60_000;

export type FactorMethod = 'totp' | 'passkey';
export type SecondStepMethod = FactorMethod | 'recovery_code';

export interface TotpFactorAddedData {
  user_id: string;
  factor_id: string;
  name: string;
  /** The TOTP seed, sealed with the secret box: never in the clear outside the moment a code is checked. */
  seed_sealed: string;
  /** The time step of the code that confirmed it: that code cannot be used again to sign in. */
  confirmed_step: number;
  added_at: string;
}

export interface PasskeyAddedData {
  user_id: string;
  factor_id: string;
  name: string;
  /** base64url, as WebAuthn names the credential. */
  credential_id: string;
  /** base64url COSE public key: public by nature, it verifies the authenticator's signatures. */
  public_key: string;
  counter: number;
  transports: string[];
  added_at: string;
}

export type SecondFactorEvent =
  | DomainEvent<'TotpFactorAdded', TotpFactorAddedData>
  | DomainEvent<'PasskeyAdded', PasskeyAddedData>
  | DomainEvent<'SecondFactorRemoved', { user_id: string; factor_id: string; method: FactorMethod; removed_at: string }>
  /** SHA-256 of each code: the codes themselves are shown once and never stored. A new set replaces the old. */
  | DomainEvent<'RecoveryCodesGenerated', { user_id: string; code_hashes: string[]; generated_at: string }>
  | DomainEvent<'RecoveryCodeUsed', { user_id: string; code_index: number; codes_left: number; client_address: string | null; used_at: string }>
  | DomainEvent<'SecondFactorUsed', {
    user_id: string;
    factor_id: string;
    method: FactorMethod;
    /** The TOTP time step accepted: no code of this step or before is accepted again. */
    totp_step: number | null;
    /** The passkey's signature counter after this use. */
    passkey_counter: number | null;
    client_address: string | null;
    used_at: string;
  }>
  /** `reason`: a short code (wrong_code, code_already_used, unknown_recovery_code, unverified_passkey, …), never what was typed. */
  | DomainEvent<'SecondFactorFailed', { user_id: string; method: SecondStepMethod; reason: string; client_address: string | null; failed_at: string }>;

/** Recovery codes generated alongside a first factor: the app makes them, the decider keeps them only if the factor is the first. */
interface WithRecoveryCodes {
  recovery_code_hashes: string[];
}

export type SecondFactorCommand =
  | ({ type: 'AddTotpFactor'; now: string } & Omit<TotpFactorAddedData, 'added_at'> & WithRecoveryCodes)
  | ({ type: 'AddPasskey'; now: string } & Omit<PasskeyAddedData, 'added_at'> & WithRecoveryCodes)
  | { type: 'RemoveSecondFactor'; user_id: string; factor_id: string; now: string }
  | ({ type: 'GenerateRecoveryCodes'; user_id: string; now: string } & WithRecoveryCodes)
  | { type: 'UseTotp'; user_id: string; step: number; client_address: string | null; now: string }
  | { type: 'UsePasskey'; user_id: string; credential_id: string; counter: number; client_address: string | null; now: string }
  | { type: 'UseRecoveryCode'; user_id: string; code_hash: string; client_address: string | null; now: string }
  | { type: 'RecordSecondFactorFailure'; user_id: string; method: SecondStepMethod; reason: string; client_address: string | null; now: string };

export interface TotpState {
  factorId: string;
  name: string;
  seedSealed: string;
  lastStep: number;
}

export interface PasskeyState {
  factorId: string;
  name: string;
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: readonly string[];
}

export interface SecondFactorsState {
  totp: TotpState | null;
  /** By factor id. */
  passkeys: ReadonlyMap<string, PasskeyState>;
  /** The hashes of the current set, null where a code was used. */
  recoveryCodes: readonly (string | null)[];
  /** When the failures since the last success happened, oldest first; at most MAX_SECOND_FACTOR_FAILURES. */
  failures: readonly string[];
}

export const secondFactorsStream = (userId: string) => `factors-${userId}`;

export function hasSecondFactor(state: SecondFactorsState): boolean {
  return state.totp !== null || state.passkeys.size > 0;
}

export function recoveryCodesLeft(state: SecondFactorsState): number {
  return state.recoveryCodes.filter((code) => code !== null).length;
}

/** Until when the account's second step refuses every attempt, or null when it does not. */
export function secondStepLockedUntil(state: SecondFactorsState, now: string): string | null {
  if (state.failures.length < MAX_SECOND_FACTOR_FAILURES) return null;
  const until = new Date(Date.parse(state.failures[0]!) + SECOND_FACTOR_FAILURE_WINDOW_MS).toISOString();
  return until > now ? until : null;
}

function refuseWhileLocked(state: SecondFactorsState, now: string): void {
  const until = secondStepLockedUntil(state, now);
  if (until) {
    const minutes = Math.max(1, Math.ceil((Date.parse(until) - Date.parse(now)) / 60_000));
    throw rateLimited(`too many wrong second factors: try again in ${minutes} min`);
  }
}

function validHashes(hashes: readonly string[]): string[] {
  if (hashes.length !== RECOVERY_CODE_COUNT || new Set(hashes).size !== RECOVERY_CODE_COUNT) throw invalid(`a set of recovery codes holds ${RECOVERY_CODE_COUNT} distinct codes`);
  return [...hashes];
}

function withFirstCodes(state: SecondFactorsState, userId: string, hashes: readonly string[], now: string): SecondFactorEvent[] {
  if (hasSecondFactor(state)) return [];
  return [{ type: 'RecoveryCodesGenerated', data: { user_id: userId, code_hashes: validHashes(hashes), generated_at: now } }];
}

export const secondFactorsDecider: Decider<SecondFactorCommand, SecondFactorsState, SecondFactorEvent> = {
  initialState: () => ({ totp: null, passkeys: new Map(), recoveryCodes: [], failures: [] }),

  evolve(state, event) {
    switch (event.type) {
      case 'TotpFactorAdded': {
        const d = event.data;
        return { ...state, totp: { factorId: d.factor_id, name: d.name, seedSealed: d.seed_sealed, lastStep: d.confirmed_step } };
      }
      case 'PasskeyAdded': {
        const d = event.data;
        const passkeys = new Map(state.passkeys);
        passkeys.set(d.factor_id, { factorId: d.factor_id, name: d.name, credentialId: d.credential_id, publicKey: d.public_key, counter: d.counter, transports: d.transports });
        return { ...state, passkeys };
      }
      case 'SecondFactorRemoved': {
        if (state.totp?.factorId === event.data.factor_id) return { ...state, totp: null };
        if (!state.passkeys.has(event.data.factor_id)) return state;
        const passkeys = new Map(state.passkeys);
        passkeys.delete(event.data.factor_id);
        return { ...state, passkeys };
      }
      case 'RecoveryCodesGenerated':
        return { ...state, recoveryCodes: event.data.code_hashes };
      case 'RecoveryCodeUsed':
        return { ...state, recoveryCodes: state.recoveryCodes.map((code, i) => (i === event.data.code_index ? null : code)), failures: [] };
      case 'SecondFactorUsed': {
        const d = event.data;
        if (d.method === 'totp' && state.totp && d.totp_step !== null) return { ...state, totp: { ...state.totp, lastStep: Math.max(state.totp.lastStep, d.totp_step) }, failures: [] };
        const passkey = state.passkeys.get(d.factor_id);
        if (d.method === 'passkey' && passkey && d.passkey_counter !== null) {
          const passkeys = new Map(state.passkeys);
          passkeys.set(d.factor_id, { ...passkey, counter: d.passkey_counter });
          return { ...state, passkeys, failures: [] };
        }
        return { ...state, failures: [] };
      }
      case 'SecondFactorFailed':
        return { ...state, failures: [...state.failures, event.data.failed_at].slice(-MAX_SECOND_FACTOR_FAILURES) };
      default: {
        const exhaustive: never = event;
        return exhaustive;
      }
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'AddTotpFactor': {
        if (state.totp?.factorId === command.factor_id) return [];
        if (state.totp) throw conflict('an authenticator app is already set up: remove it first');
        const { user_id, factor_id, name, seed_sealed, confirmed_step, now } = command;
        return [
          { type: 'TotpFactorAdded', data: { user_id, factor_id, name, seed_sealed, confirmed_step, added_at: now } },
          ...withFirstCodes(state, user_id, command.recovery_code_hashes, now),
        ];
      }
      case 'AddPasskey': {
        if (state.passkeys.has(command.factor_id)) return [];
        if ([...state.passkeys.values()].some((p) => p.credentialId === command.credential_id)) throw conflict('this passkey is already added');
        if (state.passkeys.size >= MAX_PASSKEYS) throw invalid(`a person can hold at most ${MAX_PASSKEYS} passkeys; remove one first`);
        const { user_id, factor_id, name, credential_id, public_key, counter, transports, now } = command;
        return [
          { type: 'PasskeyAdded', data: { user_id, factor_id, name, credential_id, public_key, counter, transports, added_at: now } },
          ...withFirstCodes(state, user_id, command.recovery_code_hashes, now),
        ];
      }
      case 'RemoveSecondFactor': {
        const method: FactorMethod | null = state.totp?.factorId === command.factor_id ? 'totp' : state.passkeys.has(command.factor_id) ? 'passkey' : null;
        if (method === null) throw notFound('second factor not found');
        return [{ type: 'SecondFactorRemoved', data: { user_id: command.user_id, factor_id: command.factor_id, method, removed_at: command.now } }];
      }
      case 'GenerateRecoveryCodes':
        if (!hasSecondFactor(state)) throw invalid('recovery codes stand in for a second factor: add one first');
        return [{ type: 'RecoveryCodesGenerated', data: { user_id: command.user_id, code_hashes: validHashes(command.recovery_code_hashes), generated_at: command.now } }];
      case 'UseTotp': {
        refuseWhileLocked(state, command.now);
        if (!state.totp) throw notFound('no authenticator app is set up');
        // A code works once: its step, and every step before it, is spent (RFC 6238 §5.2).
        if (command.step <= state.totp.lastStep) throw invalid('this code has already been used: wait for the next one');
        return [{
          type: 'SecondFactorUsed',
          data: { user_id: command.user_id, factor_id: state.totp.factorId, method: 'totp', totp_step: command.step, passkey_counter: null, client_address: command.client_address, used_at: command.now },
        }];
      }
      case 'UsePasskey': {
        refuseWhileLocked(state, command.now);
        const passkey = [...state.passkeys.values()].find((p) => p.credentialId === command.credential_id);
        if (!passkey) throw notFound('this passkey is not one of this account’s');
        // A counter that does not move forward (where the authenticator keeps one) is a cloned authenticator's sign.
        if ((command.counter > 0 || passkey.counter > 0) && command.counter <= passkey.counter) throw invalid('this passkey’s signature counter went backwards: it may have been copied');
        return [{
          type: 'SecondFactorUsed',
          data: { user_id: command.user_id, factor_id: passkey.factorId, method: 'passkey', totp_step: null, passkey_counter: command.counter, client_address: command.client_address, used_at: command.now },
        }];
      }
      case 'UseRecoveryCode': {
        refuseWhileLocked(state, command.now);
        if (!hasSecondFactor(state)) throw notFound('no second factor is set up');
        const index = state.recoveryCodes.indexOf(command.code_hash);
        if (index < 0) throw invalid('that recovery code is not valid, or has been used');
        const left = recoveryCodesLeft(state) - 1;
        return [{ type: 'RecoveryCodeUsed', data: { user_id: command.user_id, code_index: index, codes_left: left, client_address: command.client_address, used_at: command.now } }];
      }
      case 'RecordSecondFactorFailure':
        return [{
          type: 'SecondFactorFailed',
          data: { user_id: command.user_id, method: command.method, reason: command.reason, client_address: command.client_address, failed_at: command.now },
        }];
      default: {
        const exhaustive: never = command;
        return exhaustive;
      }
    }
  },
};
