import * as t from 'io-ts';
import { Checked, decode } from './validation.js';

const IntegerFromQuery = (field: string, min: number, max: number) =>
  Checked<number>(`an integer from ${min} to ${max}`, (u) => {
    const value = typeof u === 'string' && /^\d{1,9}$/.test(u) ? Number(u) : NaN;
    return Number.isInteger(value) && value >= min && value <= max
      ? { ok: true, value }
      : { ok: false, message: `${field} must be an integer from ${min} to ${max}` };
  });

export interface Page {
  page: number;
  limit: number;
}

/** `page` from 1, `limit` from 1 to `max` (default 20). */
export function pageOf(query: Record<string, unknown>, max: number): Page {
  const codec = t.partial({ page: IntegerFromQuery('page', 1, 1_000_000), limit: IntegerFromQuery('limit', 1, max) });
  const decoded = decode(codec, { page: query['page'], limit: query['limit'] }, 'query');
  return { page: decoded.page ?? 1, limit: decoded.limit ?? 20 };
}

export function envelope<T>(data: T[], page: Page, total: number) {
  const totalPages = Math.ceil(total / page.limit);
  return {
    data,
    pagination: { page: page.page, limit: page.limit, total, total_pages: totalPages, has_next: page.page < totalPages, has_prev: page.page > 1 },
  };
}
