import type { Decider, DomainEvent } from '../decider.js';

/*
 * When an API key was last used to authenticate, to the hour: enough for a person deciding whether
 * a key is still needed, without a write per request. Each key's uses go to a stream of their own,
 * kept to its newest event (a window of one), so the log does not grow with use.
 */

/** A key is recorded as used at most once in this long. */
export const USE_RECORDED_EVERY_MS = 60 * 60 * 1000;

export const apiKeyUseStream = (apiKeyId: string) => `api-key-used-${apiKeyId}`;

export type ApiKeyUseEvent = DomainEvent<'ApiKeyUsed', { user_id: string; api_key_id: string; at: string }>;

export type ApiKeyUseCommand = { type: 'RecordApiKeyUse'; user_id: string; api_key_id: string; now: string };

export interface ApiKeyUseState {
  lastRecordedAt: string | null;
}

export const apiKeyUseDecider: Decider<ApiKeyUseCommand, ApiKeyUseState, ApiKeyUseEvent> = {
  initialState: () => ({ lastRecordedAt: null }),
  evolve(state, event) {
    switch (event.type) {
      case 'ApiKeyUsed':
        return { lastRecordedAt: state.lastRecordedAt !== null && Date.parse(state.lastRecordedAt) > Date.parse(event.data.at) ? state.lastRecordedAt : event.data.at };
      default: {
        const exhaustive: never = event.type;
        return exhaustive;
      }
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'RecordApiKeyUse': {
        // Within the hour of the last record: nothing new to say (also what a second process sees).
        if (state.lastRecordedAt !== null && Date.parse(command.now) - Date.parse(state.lastRecordedAt) < USE_RECORDED_EVERY_MS) return [];
        return [{ type: 'ApiKeyUsed', data: { user_id: command.user_id, api_key_id: command.api_key_id, at: command.now } }];
      }
      default: {
        const exhaustive: never = command.type;
        return exhaustive;
      }
    }
  },
};
