export type IncidentKind = 'MISSED' | 'FAILED' | 'DURATION_HIGH' | 'DURATION_LOW' | 'SSL_EXPIRING';
export const INCIDENT_KINDS: readonly IncidentKind[] = ['MISSED', 'FAILED', 'DURATION_HIGH', 'DURATION_LOW', 'SSL_EXPIRING'];
export type IncidentStatus = 'OPEN' | 'ACKNOWLEDGED' | 'RESOLVED';
export const INCIDENT_STATUSES: readonly IncidentStatus[] = ['OPEN', 'ACKNOWLEDGED', 'RESOLVED'];

/**
 * Who acknowledged or resolved an incident (or wrote a note) through the API or the console: the
 * key they used, or null for a person signed in to the console without one (password, passkey,
 * single sign-on). Events recorded before people signed in without keys always name one.
 */
export interface UserActor {
  user_id: string;
  email: string;
  api_key_id: string | null;
}
