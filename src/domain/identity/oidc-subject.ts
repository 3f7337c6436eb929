import type { Decider, DomainEvent } from '../decider.js';
import { conflict } from '../errors.js';

/**
 * A person at an OpenID Provider (its issuer and their `sub`, which the provider never reassigns)
 * linked to a Vigil user, in a stream of its own per subject: the first link wins, as an email
 * claim does. A later sign-in finds the user by the subject first, so a person whose email changes
 * at the provider still reaches the same account.
 */
export type OidcSubjectEvent = DomainEvent<'OidcSubjectLinked', {
  user_id: string;
  issuer: string;
  subject: string;
  /** The verified email the link was made on. */
  email: string;
  /** Whether this sign-in created the account (it has no password then): the record that it came from single sign-on. */
  registered: boolean;
  linked_at: string;
}>;

export type OidcSubjectCommand = {
  type: 'LinkOidcSubject';
  user_id: string;
  issuer: string;
  subject: string;
  email: string;
  registered: boolean;
  now: string;
};

export interface OidcSubjectState {
  userId: string | null;
}

/** `key`: a digest of the issuer and subject (the app layer makes it), so that any `sub` makes a valid stream name. */
export const oidcSubjectStream = (key: string) => `oidcsubject-${key}`;

export const oidcSubjectDecider: Decider<OidcSubjectCommand, OidcSubjectState, OidcSubjectEvent> = {
  initialState: () => ({ userId: null }),
  evolve(state, event) {
    switch (event.type) {
      case 'OidcSubjectLinked':
        return state.userId === null ? { userId: event.data.user_id } : state;
      default: {
        const exhaustive: never = event.type;
        return exhaustive;
      }
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'LinkOidcSubject': {
        if (state.userId === command.user_id) return [];
        if (state.userId !== null) throw conflict('this single sign-on identity is already linked to another user');
        const { user_id, issuer, subject, email, registered, now } = command;
        return [{ type: 'OidcSubjectLinked', data: { user_id, issuer, subject, email, registered, linked_at: now } }];
      }
      default: {
        const exhaustive: never = command.type;
        return exhaustive;
      }
    }
  },
};
