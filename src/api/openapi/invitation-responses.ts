import * as t from 'io-ts';
import { described } from '../../web/json-schema.js';

/** What the invitation operations answer (see responses.ts for why these are codecs). */
const Id = described(t.string, { type: 'string', format: 'uuid' });
const Time = described(t.string, { type: 'string', format: 'date-time' });
const NullableTime = t.union([Time, t.null]);

export const Invitation = t.type({
  id: Id,
  project_id: Id,
  email: t.string,
  role: t.union([t.literal('MANAGER'), t.literal('MEMBER'), t.literal('READONLY')]),
  status: t.union([t.literal('open'), t.literal('expired'), t.literal('accepted'), t.literal('revoked')]),
  invited_by: Id,
  issued_at: Time,
  expires_at: Time,
  accepted_by: t.union([Id, t.null]),
  accepted_at: NullableTime,
  revoked_at: NullableTime,
});

export const IssuedInvitation = t.type({
  invitation: Invitation,
  /** The link to send: its token is shown this once, and only its hash is kept. */
  url: t.string,
  /** Whether it was mailed to the address (only where SMTP is configured). */
  emailed: t.boolean,
});
