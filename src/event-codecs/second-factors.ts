import * as t from 'io-ts';
import { NullableNumber, NullableString, oneOf } from './fields.js';

const FactorMethod = oneOf(['totp', 'passkey'], 'FactorMethod');

export const secondFactorEventCodecs = {
  TotpFactorAdded: t.type({ user_id: t.string, factor_id: t.string, name: t.string, seed_sealed: t.string, confirmed_step: t.number, added_at: t.string }),
  PasskeyAdded: t.type({
    user_id: t.string,
    factor_id: t.string,
    name: t.string,
    credential_id: t.string,
    public_key: t.string,
    counter: t.number,
    transports: t.array(t.string),
    added_at: t.string,
  }),
  SecondFactorRemoved: t.type({ user_id: t.string, factor_id: t.string, method: FactorMethod, removed_at: t.string }),
  RecoveryCodesGenerated: t.type({ user_id: t.string, code_hashes: t.array(t.string), generated_at: t.string }),
  RecoveryCodeUsed: t.type({ user_id: t.string, code_index: t.number, codes_left: t.number, client_address: NullableString, used_at: t.string }),
  SecondFactorUsed: t.type({
    user_id: t.string,
    factor_id: t.string,
    method: FactorMethod,
    totp_step: NullableNumber,
    passkey_counter: NullableNumber,
    client_address: NullableString,
    used_at: t.string,
  }),
  SecondFactorFailed: t.type({
    user_id: t.string,
    method: oneOf(['totp', 'passkey', 'recovery_code'], 'SecondStepMethod'),
    reason: t.string,
    client_address: NullableString,
    failed_at: t.string,
  }),
};
