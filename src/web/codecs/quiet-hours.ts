import * as t from 'io-ts';
import { type QuietHours, quietHoursProblem } from '../../domain/notifications/quiet-hours.js';
import { Checked } from '../validation.js';

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);

/** Quiet hours as a request gives them; every failure names its field (`quiet_hours.start: ...`). */
export const QuietHoursInput = (field = 'quiet_hours') =>
  t.union(
    [
      Checked<QuietHours>(
        'quiet hours',
        (u) => {
          if (!isRecord(u)) return { ok: false, message: `${field} must be an object { days, start, end, time_zone }, or null for none` };
          const days = u['days'];
          if (!Array.isArray(days) || days.length > 7) return { ok: false, message: `${field}.days must be an array of up to 7 days, 0 (Sunday) to 6 (Saturday)` };
          for (const key of ['start', 'end', 'time_zone'] as const) {
            if (typeof u[key] !== 'string') return { ok: false, message: `${field}.${key} ${u[key] === undefined ? 'is required' : 'must be a string'}` };
          }
          const quiet: QuietHours = { days: days.map(Number), start: String(u['start']), end: String(u['end']), time_zone: String(u['time_zone']) };
          if (days.some((day) => typeof day !== 'number')) return { ok: false, message: `${field}.days must be an array of whole numbers, 0 (Sunday) to 6 (Saturday)` };
          const problem = quietHoursProblem(quiet, field);
          return problem ? { ok: false, message: problem } : { ok: true, value: { ...quiet, days: [...quiet.days].sort((a, b) => a - b) } };
        },
        {
          type: 'object',
          description: 'A weekly window in a zone when the channel is not paged (urgent pages aside); end before start runs past midnight.',
          required: ['days', 'start', 'end', 'time_zone'],
          properties: {
            days: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 6 }, description: '0 = Sunday .. 6 = Saturday: the days a window starts on' },
            start: { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' },
            end: { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' },
            time_zone: { type: 'string', description: 'An IANA zone, such as Europe/Berlin' },
          },
        },
      ),
      t.null,
    ],
    'quiet hours, or null for none',
  );
