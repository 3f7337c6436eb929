export type IncidentKind = 'MISSED' | 'FAILED' | 'DURATION_HIGH' | 'DURATION_LOW' | 'SSL_EXPIRING';
export const INCIDENT_KINDS: readonly IncidentKind[] = ['MISSED', 'FAILED', 'DURATION_HIGH', 'DURATION_LOW', 'SSL_EXPIRING'];
export type IncidentStatus = 'OPEN' | 'ACKNOWLEDGED' | 'RESOLVED';
export const INCIDENT_STATUSES: readonly IncidentStatus[] = ['OPEN', 'ACKNOWLEDGED', 'RESOLVED'];

/** Who acknowledged or resolved an incident through the API. */
export interface UserActor {
  user_id: string;
  email: string;
  api_key_id: string;
}
