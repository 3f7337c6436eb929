import type { Decider, DomainEvent } from '../decider.js';
import { invalid } from '../errors.js';

/**
 * Email addresses are unique across users. EventStoreDB has no unique index, so each address
 * is claimed in a stream of its own, appended with `no_stream`: the first claim wins.
 */
export type EmailClaimEvent = DomainEvent<'EmailClaimed', { email: string; user_id: string; claimed_at: string }>;
export type EmailClaimCommand = { type: 'ClaimEmail'; email: string; user_id: string; now: string };
export interface EmailClaimState {
  userId: string | null;
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();
export const emailClaimStream = (email: string) => `useremail-${normalizeEmail(email)}`;

export const emailClaimDecider: Decider<EmailClaimCommand, EmailClaimState, EmailClaimEvent> = {
  initialState: () => ({ userId: null }),
  evolve(state, event) {
    switch (event.type) {
      case 'EmailClaimed':
        return { userId: event.data.user_id };
      default: {
        const exhaustive: never = event.type;
        return exhaustive;
      }
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'ClaimEmail':
        if (state.userId === command.user_id) return [];
        if (state.userId !== null) throw invalid(`a user with email ${command.email} already exists`);
        return [{ type: 'EmailClaimed', data: { email: normalizeEmail(command.email), user_id: command.user_id, claimed_at: command.now } }];
      default: {
        const exhaustive: never = command.type;
        return exhaustive;
      }
    }
  },
};
