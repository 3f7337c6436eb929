/** What one attempt of any uptime check found; the checker turns it into a CheckCompleted. */
export interface ProbeOutcome {
  is_up: boolean;
  /** The HTTP status; null for checks that are not HTTP. */
  status_code: number | null;
  response_time_ms: number;
  /** Why the check failed, as a person reads it; null when up. */
  error: string | null;
  ssl_expires_at: string | null;
  ssl_issuer: string | null;
  /** The checker itself could not check (a refused target): not the target's fault, and never retried. */
  probe_error: boolean;
}

export const probeOutcome = (startedAt: number, fields: Partial<ProbeOutcome>): ProbeOutcome => ({
  is_up: false, status_code: null, error: null, ssl_expires_at: null, ssl_issuer: null, probe_error: false,
  response_time_ms: Math.round(performance.now() - startedAt), ...fields,
});
