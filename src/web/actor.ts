import type { Actor } from '../app/command-handler.js';
import type { VigilState } from './state.js';

export function actorOf(state: VigilState): Actor {
  const { userId, apiKeyId, sessionRef } = state.caller;
  return { kind: 'user', user_id: userId, api_key_id: apiKeyId, request_id: state.requestId, ...(sessionRef ? { session_ref: sessionRef } : {}) };
}
