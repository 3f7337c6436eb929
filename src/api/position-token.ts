import { HttpError } from '../web/errors.js';

/** On a write's answer (REST or Ping API): the log position it wrote, as an opaque token. */
export const POSITION_HEADER = 'Vigil-Position';
/** On a request: answer only from read models that include the positions these tokens name. */
export const MIN_POSITION_HEADER = 'Vigil-Min-Position';

/**
 * `v1.` and the position in base 36. Opaque to clients (they echo it, never compare or compute
 * with it), so the encoding may change under a new version prefix. The digits cap it at 2^53, as
 * positions are JavaScript numbers.
 */
const TOKEN = /^v1\.([0-9a-z]{1,11})$/;
/** A client that merges the tokens of several writes sends them all, comma-separated (an HTTP list header). */
const MAX_TOKENS = 16;

export function positionToken(position: number): string {
  return `v1.${position.toString(36)}`;
}

/**
 * The furthest position the request's Vigil-Min-Position tokens name, null without the header. A
 * malformed header is a 400 that names it; the offending value is not echoed, as it can be anything.
 */
export function minPositionOf(header: string | string[] | undefined): number | null {
  if (header === undefined) return null;
  const tokens = (Array.isArray(header) ? header.join(',') : header).split(',').map((token) => token.trim());
  if (tokens.length > MAX_TOKENS) throw malformed(`must hold at most ${MAX_TOKENS} tokens`);
  let furthest = 0;
  for (const token of tokens) {
    const digits = TOKEN.exec(token)?.[1];
    const position = digits === undefined ? Number.NaN : parseInt(digits, 36);
    if (!Number.isSafeInteger(position)) throw malformed('must be a token from a Vigil-Position response header');
    furthest = Math.max(furthest, position);
  }
  return furthest;
}

function malformed(why: string): HttpError {
  return new HttpError(400, `${MIN_POSITION_HEADER} header ${why}`);
}
