import * as t from 'io-ts';
import { Checked, OneOf, Uuid } from '../validation.js';

/**
 * Query-string codecs. Query values arrive as strings, so numbers are parsed here; every codec
 * is named so the OpenAPI document describes the same parameters the handlers decode.
 */

export const IsoDateTime = (field: string) =>
  Checked<string>(
    'an ISO 8601 date-time',
    (u) =>
      typeof u === 'string' && /^\d{4}-\d\d-\d\d/.test(u) && !Number.isNaN(Date.parse(u))
        ? { ok: true, value: new Date(u).toISOString() }
        : { ok: false, message: `${field} must be an ISO 8601 date-time such as 2026-11-21T14:00:00Z` },
    { type: 'string', format: 'date-time' },
  );

export const IntegerFromQuery = (field: string, min: number, max: number) =>
  Checked<number>(
    `an integer from ${min} to ${max}`,
    (u) => {
      const value = typeof u === 'string' && /^-?\d{1,10}$/.test(u) ? Number(u) : NaN;
      return Number.isInteger(value) && value >= min && value <= max
        ? { ok: true, value }
        : { ok: false, message: `${field} must be an integer from ${min} to ${max}` };
    },
    { type: 'integer', minimum: min, maximum: max },
  );

/** `page` from 1, `limit` from 1 to `max` (default 20). */
export const PageQuery = (max: number) => t.partial({ page: IntegerFromQuery('page', 1, 1_000_000), limit: IntegerFromQuery('limit', 1, max) });

/** Lists that an account key must scope to a project (a project key is already scoped). */
export const ProjectScopeQuery = t.partial({ project_id: Uuid });

export const AsOfQuery = t.partial({ as_of: IsoDateTime('as_of') });

export const IncidentListQuery = t.partial({ project_id: Uuid, monitor_id: Uuid, as_of: IsoDateTime('as_of') });

export const PingHistoryQuery = t.partial({
  run_id: t.string,
  exit_code: IntegerFromQuery('exit_code', -2_147_483_648, 4_294_967_295),
  duration_assertion: OneOf(['PASS', 'TOO_FAST', 'TOO_SLOW'] as const),
  from_date: IsoDateTime('from_date'),
  to_date: IsoDateTime('to_date'),
});

export const HistoryRangeQuery = t.partial({ from: IsoDateTime('from'), to: IsoDateTime('to') });

export const PeriodQuery = t.partial({ period_hours: IntegerFromQuery('period_hours', 1, 720) });

/** Picks the named keys out of a Koa query object, so unknown parameters never reach a codec. */
export function queryFields(query: Record<string, unknown>, codec: t.PartialType<t.Props>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(codec.props).map((key) => [key, query[key]]));
}
