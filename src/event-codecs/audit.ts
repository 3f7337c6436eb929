import * as t from 'io-ts';
import { NullableNumber, NullableString, nullable, oneOf } from './fields.js';

export const auditEventCodecs = {
  LogIntegrityChecked: t.type({
    checked_at: t.string,
    ok: t.boolean,
    events_checked: t.number,
    head_position: t.number,
    head_chain: NullableString,
    first_break_position: NullableNumber,
    first_break_reason: NullableString,
    read_models_ok: nullable(t.boolean),
    checked_by: oneOf(['cli', 'console'], 'checked_by'),
    user_id: NullableString,
    project_id: NullableString,
  }),
};
