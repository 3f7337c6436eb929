import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { LeaseStore } from './leases.js';

const PROCESS_STARTED = Math.round(performance.timeOrigin);

/**
 * This process in the lease store: hostname:pid:process start:random. The random part tells apart
 * several Vigils started in one process (tests); the rest lets a restarted process recognise the
 * leases of a dead predecessor on the same host.
 */
export function newHolderId(): string {
  return `${hostname()}:${process.pid}:${PROCESS_STARTED}:${randomBytes(4).toString('hex')}`;
}

/**
 * Whether `holder` was a process on this host that is gone: its pid is not running, or is ours
 * but started at another time (a container restarted with the same pid). Leases of anything we
 * cannot be sure about are left to expire.
 */
export function isDeadLocalHolder(holder: string): boolean {
  const [host, pidText, startedText] = holder.split(':');
  const pid = Number(pidText);
  if (host !== hostname() || !Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return Number(startedText) !== PROCESS_STARTED;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Releases every live lease held by a dead process on this host. Run at startup, it lets a server
 * restarted after a crash take its work back at once instead of waiting out its own old leases.
 */
export async function releaseDeadLocalHolders(leases: LeaseStore, now: Date): Promise<number> {
  const dead = (await leases.holders('', now)).filter((lease) => isDeadLocalHolder(lease.holder));
  for (const lease of dead) await leases.release(lease.name, lease.holder);
  return dead.length;
}
