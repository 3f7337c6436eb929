import { PageQuery } from '../web/codecs/queries.js';
import { decode } from '../web/validation.js';

export interface Page {
  page: number;
  limit: number;
}

/** `page` from 1, `limit` from 1 to `max` (default 20). */
export function pageOf(query: Record<string, unknown>, max: number): Page {
  const decoded = decode(PageQuery(max), { page: query['page'], limit: query['limit'] }, 'query');
  return { page: decoded.page ?? 1, limit: decoded.limit ?? 20 };
}

export function envelope<T>(data: T[], page: Page, total: number) {
  const totalPages = Math.ceil(total / page.limit);
  return {
    data,
    pagination: { page: page.page, limit: page.limit, total, total_pages: totalPages, has_next: page.page < totalPages, has_prev: page.page > 1 },
  };
}
