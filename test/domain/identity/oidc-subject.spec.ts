import { oidcSubjectDecider } from '../../../src/domain/identity/oidc-subject.js';
import { deciderSpec } from '../../support/decider.js';

const NOW = '2026-11-21T12:00:00.000Z';
const link = { type: 'LinkOidcSubject', user_id: 'u1', issuer: 'https://id.example.com', subject: 'abc', email: 'a@example.com', registered: true, now: NOW } as const;
const linked = { type: 'OidcSubjectLinked', data: { user_id: 'u1', issuer: 'https://id.example.com', subject: 'abc', email: 'a@example.com', registered: true, linked_at: NOW } } as const;

describe('OIDC subject', () => {
  const spec = deciderSpec(oidcSubjectDecider);

  it('links a subject seen for the first time to its user', () => {
    spec.given([]).when(link).then([linked]);
  });

  it('does nothing when the subject is already linked to that user', () => {
    spec.given([linked]).when({ ...link, email: 'new@example.com', registered: false }).then([]);
  });

  it('refuses to link a subject already linked to someone else', () => {
    spec.given([linked]).when({ ...link, user_id: 'u2' }).thenRefuses('conflict', /already linked to another user/);
  });
});
