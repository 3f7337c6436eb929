import type { ApiDependencies } from '../web/dependencies.js';
import { secondFactorsOf } from '../app/second-factors.js';
import { hasSecondFactor } from '../domain/identity/second-factors.js';
import type { SecondFactorGate } from './sign-in-flow.js';

/**
 * The console's second-factor gate: a person who has set up an authenticator app or a passkey
 * passes one of them (or a recovery code) after identifying themselves, whatever the first step
 * was (password, single sign-on, an invitation, a password reset), except a passkey sign-in, which
 * is already something the person has. Read from the person's `factors-` stream, not a read model,
 * so a factor added a moment ago is asked for at once.
 */
export function secondFactorGate(deps: ApiDependencies): SecondFactorGate {
  return {
    async required(userId, method) {
      if (method === 'passkey' || method === 'api_key') return false;
      return hasSecondFactor(await secondFactorsOf(deps.commands, userId));
    },
  };
}
