import type { InvitationDependencies } from '../app/project-invitations.js';
import type { ApiDependencies } from './dependencies.js';
import { RequestLimit } from './rate-limit.js';

/** Invitations each user may issue in an hour: a team's worth, not a list of addresses. */
export const INVITATION_LIMIT = { requests: 30, windowSeconds: 3600 } as const;

const limits = new WeakMap<object, RequestLimit>();

/** Counts an invitation the user is about to issue, refusing it (429) past the limit: both edges ask before inviteToProject. */
export async function countInvitation(deps: ApiDependencies, userId: string): Promise<void> {
  let limit = limits.get(deps);
  if (!limit) {
    limit = new RequestLimit(INVITATION_LIMIT, (retryAfter) => `invitations can be issued ${INVITATION_LIMIT.requests} times an hour; retry after ${retryAfter} s`);
    limits.set(deps, limit);
  }
  await limit.take(`user:${userId}`);
}

/** What inviteToProject (src/app/project-invitations.ts) reads, appends and mails through. */
export function invitationDependencies(deps: ApiDependencies): InvitationDependencies {
  return { commands: deps.commands, readModels: deps.readModels, smtp: deps.config.smtp, logger: deps.logger };
}
