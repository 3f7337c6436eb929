import { RequestLimit } from './rate-limit.js';

/**
 * Members added by email, for each user who adds them: whether an email has an account shows in
 * the answer (a member, or `400 no user has the email …`) until invitations replace adding, so the
 * lookups are few enough that trying a list of addresses takes days, not minutes.
 */
export const EMAIL_LOOKUP_LIMIT = { requests: 20, windowSeconds: 3600 } as const;

const limits = new WeakMap<object, RequestLimit>();

/**
 * Counts one lookup by email against `userId`, or throws the 429. One count for the REST API and
 * the console's form, kept beside the app they serve (`owner`: its dependencies), in this process.
 */
export async function countEmailLookup(owner: object, userId: string): Promise<void> {
  let limit = limits.get(owner);
  if (!limit) {
    limit = new RequestLimit(
      EMAIL_LOOKUP_LIMIT,
      (retryAfter) => `members can be added by email ${EMAIL_LOOKUP_LIMIT.requests} times an hour; retry after ${retryAfter} s, or add them by user_id`,
    );
    limits.set(owner, limit);
  }
  await limit.take(`user:${userId}`);
}
