import { withoutCredentials } from './store-description.js';
import type { PingTarget } from './ping-target.js';
import { visible } from './visible.js';

/**
 * What to say when Vigil answers 404 to a ping: the monitor id or slug is wrong (mistyped in a
 * crontab line, or the monitor was deleted), or the URL is not the Vigil the monitor is on. It will
 * not change on a retry and every run will be lost until it is fixed, so it takes several lines,
 * each starting with the command, that name the monitor and the server: cron mails stderr.
 */
export function missingMonitorLines(command: 'exec' | 'ping', target: PingTarget, error: string): string[] {
  const prefix = `vigil ${command}:`;
  const server = visible(withoutCredentials(target.baseUrl)).replace(/\/+$/, '');
  const where = command === 'exec' ? ' in your crontab line' : '';
  if ('monitorId' in target) {
    return [
      `${prefix} Vigil at ${server} has no monitor ${visible(target.monitorId)} (${visible(error)}).`,
      `${prefix} check the ${command === 'exec' ? '--monitor' : 'monitor id'}${where}, and that --url or VIGIL_URL is the Vigil that has it.`,
    ];
  }
  return [
    `${prefix} Vigil at ${server} has no monitor with the slug ${visible(target.slug)} in the project of that ping key (${visible(error)}).`,
    `${prefix} check the --slug and --ping-key (or VIGIL_PING_KEY)${where}, and that --url or VIGIL_URL is the Vigil that has it.`,
  ];
}
