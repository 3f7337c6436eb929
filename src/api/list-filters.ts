import type { Filter } from '../readstore/read-model-store.js';
import { badRequest } from '../web/errors.js';

/**
 * A comma-separated filter such as `status=OPEN,ACKNOWLEDGED`. An unknown value fails the whole
 * request with a 400 that lists what is accepted.
 */
export function listFilter(raw: unknown, field: string, accepted: readonly string[]): Filter {
  if (raw === undefined || raw === '') return {};
  const values = (Array.isArray(raw) ? raw.join(',') : String(raw)).split(',').map((v) => v.trim()).filter(Boolean);
  const unknown = values.filter((v) => !accepted.includes(v));
  if (unknown.length > 0) throw badRequest(`${field} has unknown value ${unknown.join(', ')}; accepted values are ${accepted.join(', ')}`);
  return values.length > 0 ? { [field]: { $in: values } } : {};
}
