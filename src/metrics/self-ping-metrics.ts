import { Counter, type Registry } from 'prom-client';

export const SELF_PING_OUTCOMES = ['ok', 'failed', 'refused', 'skipped_unhealthy'] as const;
export type SelfPingOutcome = (typeof SELF_PING_OUTCOMES)[number];

/**
 * vigil_self_ping_total, registered only where the heartbeat runs, so its absence says that this
 * process sends none. Every outcome starts at zero, so an alert on `failed` sees the first one.
 */
export function selfPingCounter(registry: Registry): Counter<'outcome'> {
  const counter = new Counter({
    name: 'vigil_self_ping_total',
    help: 'Heartbeats to VIGIL_SELF_PING_URL: answered 2xx (ok), failed (an error status, no connection, no answer in time), refused by the outbound policy, or not sent because this process was not ready (skipped_unhealthy).',
    labelNames: ['outcome'],
    registers: [registry],
  });
  for (const outcome of SELF_PING_OUTCOMES) counter.inc({ outcome }, 0);
  return counter;
}
