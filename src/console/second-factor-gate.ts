import type { ApiDependencies } from '../api/dependencies.js';
import { NO_SECOND_FACTOR, type SecondFactorGate } from './sign-in-flow.js';

/**
 * The console's second-factor gate: whether a person just identified must pass a second factor
 * before their session opens (see sign-in-flow.ts). Until second factors exist, nobody is asked.
 */
export function secondFactorGate(deps: ApiDependencies): SecondFactorGate {
  void deps;
  return NO_SECOND_FACTOR;
}
