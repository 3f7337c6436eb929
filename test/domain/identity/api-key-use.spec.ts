import { type ApiKeyUseEvent, apiKeyUseDecider } from '../../../src/domain/identity/api-key-use.js';
import { deciderSpec } from '../../support/decider.js';

const { given } = deciderSpec(apiKeyUseDecider);
const use = (now: string) => ({ type: 'RecordApiKeyUse' as const, user_id: 'u-1', api_key_id: 'k-1', now });
const used = (at: string): ApiKeyUseEvent => ({ type: 'ApiKeyUsed', data: { user_id: 'u-1', api_key_id: 'k-1', at } });

describe('API key use', () => {
  it('records a key\'s first use', () => given([]).when(use('2026-11-21T12:00:00.000Z')).then([used('2026-11-21T12:00:00.000Z')]));

  it('records nothing for a use within the hour of the last one recorded', () =>
    given([used('2026-11-21T12:00:00.000Z')]).when(use('2026-11-21T12:59:59.999Z')).then([]));

  it('records a use an hour or more after the last one recorded', () =>
    given([used('2026-11-21T12:00:00.000Z')]).when(use('2026-11-21T13:00:00.000Z')).then([used('2026-11-21T13:00:00.000Z')]));
});
