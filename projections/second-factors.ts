import type { FactorMethod } from '../src/domain/identity/second-factors.js';
import type { Projection } from '../src/projector/projection.js';

export interface SecondFactorEntry {
  factor_id: string;
  method: FactorMethod;
  name: string;
  /** A passkey's transports (usb, internal, hybrid…), to list it; empty for an authenticator app. */
  transports: string[];
  added_at: string;
  last_used_at: string | null;
}

/**
 * A person's second factors, as the account page lists them and the sign-in's second step offers
 * them: names and dates only. The TOTP seed (sealed) and the passkeys' keys and counters stay in
 * the log, where the command side reads them; the recovery codes are only counted.
 */
export interface SecondFactorsDocument {
  id: string;
  user_id: string;
  factors: SecondFactorEntry[];
  recovery_codes_left: number;
  recovery_codes_generated_at: string | null;
}

const empty = (userId: string): SecondFactorsDocument => ({ id: userId, user_id: userId, factors: [], recovery_codes_left: 0, recovery_codes_generated_at: null });

export const secondFactorsProjection: Projection<SecondFactorsDocument> = {
  name: 'second_factors',
  version: 1,
  collection: { name: 'second_factors', indexes: [] },
  handles: ['TotpFactorAdded', 'PasskeyAdded', 'SecondFactorRemoved', 'RecoveryCodesGenerated', 'RecoveryCodeUsed', 'SecondFactorUsed'],
  targets: (event) => {
    switch (event.type) {
      case 'TotpFactorAdded':
      case 'PasskeyAdded':
      case 'SecondFactorRemoved':
      case 'RecoveryCodesGenerated':
      case 'RecoveryCodeUsed':
      case 'SecondFactorUsed':
        return { ids: [event.data.user_id] };
      default:
        return { ids: [] };
    }
  },
  apply(doc, event) {
    switch (event.type) {
      case 'TotpFactorAdded': {
        const d = event.data;
        const current = doc ?? empty(d.user_id);
        return { ...current, factors: [...current.factors, { factor_id: d.factor_id, method: 'totp', name: d.name, transports: [], added_at: d.added_at, last_used_at: null }] };
      }
      case 'PasskeyAdded': {
        const d = event.data;
        const current = doc ?? empty(d.user_id);
        return { ...current, factors: [...current.factors, { factor_id: d.factor_id, method: 'passkey', name: d.name, transports: d.transports, added_at: d.added_at, last_used_at: null }] };
      }
      case 'SecondFactorRemoved':
        return doc && { ...doc, factors: doc.factors.filter((f) => f.factor_id !== event.data.factor_id) };
      case 'RecoveryCodesGenerated': {
        const current = doc ?? empty(event.data.user_id);
        return { ...current, recovery_codes_left: event.data.code_hashes.length, recovery_codes_generated_at: event.data.generated_at };
      }
      case 'RecoveryCodeUsed':
        return doc && { ...doc, recovery_codes_left: event.data.codes_left };
      case 'SecondFactorUsed':
        return doc && { ...doc, factors: doc.factors.map((f) => (f.factor_id === event.data.factor_id ? { ...f, last_used_at: event.data.used_at } : f)) };
      default:
        return doc;
    }
  },
};
