import type { Actor } from '../app/command-handler.js';
import type { VigilState } from './state.js';

export function actorOf(state: VigilState): Actor {
  return { kind: 'user', user_id: state.caller.userId, api_key_id: state.caller.apiKeyId, request_id: state.requestId };
}
