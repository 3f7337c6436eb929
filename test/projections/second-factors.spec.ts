import { expect } from 'chai';
import { secondFactorsProjection } from '../../projections/second-factors.js';
import type { VigilEvent } from '../../src/domain/events.js';
import type { ProjectedEvent } from '../../src/projector/projection.js';

const at = '2026-11-21T00:00:00.000Z';
const later = '2026-11-22T00:00:00.000Z';
const user_id = 'u1';
let position = 0;
const projected = (event: VigilEvent): ProjectedEvent => ({ ...event, id: `e${position}`, position: (position += 1), streamName: `factors-${user_id}`, revision: position, created: at, metadata: {} });

const totp = projected({ type: 'TotpFactorAdded', data: { user_id, factor_id: 'f1', name: 'Phone', seed_sealed: 'v1.iv.tag.data', confirmed_step: 10, added_at: at } });
const codes = projected({ type: 'RecoveryCodesGenerated', data: { user_id, code_hashes: Array.from({ length: 10 }, (_, i) => `hash${i}`), generated_at: at } });
const passkey = projected({
  type: 'PasskeyAdded', data: { user_id, factor_id: 'f2', name: 'Laptop', credential_id: 'cred', public_key: 'pk', counter: 0, transports: ['internal'], added_at: at },
});
const used = projected({ type: 'SecondFactorUsed', data: { user_id, factor_id: 'f2', method: 'passkey', totp_step: null, passkey_counter: 3, client_address: '10.0.0.1', used_at: later } });
const codeUsed = projected({ type: 'RecoveryCodeUsed', data: { user_id, code_index: 2, codes_left: 9, client_address: null, used_at: later } });
const removed = projected({ type: 'SecondFactorRemoved', data: { user_id, factor_id: 'f1', method: 'totp', removed_at: later } });

const replay = (events: ProjectedEvent[]) => events.reduce<ReturnType<typeof secondFactorsProjection.apply>>((doc, event) => secondFactorsProjection.apply(doc, event, user_id), null);

describe('Second factors projection', () => {
  it('lists a person’s factors by name and date, with the recovery codes left', () => {
    expect(replay([totp, codes, passkey, used, codeUsed, removed])).to.deep.equal({
      id: user_id,
      user_id,
      factors: [{ factor_id: 'f2', method: 'passkey', name: 'Laptop', transports: ['internal'], added_at: at, last_used_at: later }],
      recovery_codes_left: 9,
      recovery_codes_generated_at: at,
    });
  });

  it('holds no seed, key, counter or code hash', () => {
    const text = JSON.stringify(replay([totp, codes, passkey, used]));
    for (const secret of ['v1.iv.tag.data', 'hash0', '"pk"', 'cred', 'counter']) expect(text).to.not.contain(secret);
  });

  it('targets the person the event is about, and handles no failure (nothing the pages show)', () => {
    expect(secondFactorsProjection.targets(totp)).to.deep.equal({ ids: [user_id] });
    expect(secondFactorsProjection.handles).to.not.include('SecondFactorFailed');
  });
});
