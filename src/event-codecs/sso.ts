import * as t from 'io-ts';

export const ssoEventCodecs = {
  OidcSubjectLinked: t.type({ user_id: t.string, issuer: t.string, subject: t.string, email: t.string, registered: t.boolean, linked_at: t.string }),
};
