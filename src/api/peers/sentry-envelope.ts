import { HttpError } from '../../web/errors.js';

/**
 * Sentry's envelope format (develop.sentry.dev/sdk/data-model/envelopes): a JSON header line, then
 * items, each a JSON header line and a payload that is either `length` bytes (then an optional
 * newline) or, without `length`, the rest of the line.
 */
export interface Envelope {
  header: Record<string, unknown>;
  items: { header: Record<string, unknown>; payload: Buffer }[];
}

const NEWLINE = 0x0a;
/**
 * The item header every SDK sends before a check-in, byte for byte: known without parsing it, as
 * nearly every envelope Vigil receives is one check-in. Frozen, as every envelope shares it.
 */
const CHECK_IN_HEADER_BYTES = Buffer.from('{"type":"check_in"}');
const CHECK_IN_HEADER: Record<string, unknown> = Object.freeze({ type: 'check_in' });

/** Where the line starting at `start` ends: at its newline, or at the end of the envelope. */
function lineEnd(bytes: Buffer, start: number): number {
  const end = bytes.indexOf(NEWLINE, start);
  return end < 0 ? bytes.length : end;
}

/** Where the next line starts, after the line ending at `stop`. */
const nextLine = (bytes: Buffer, stop: number) => Math.min(stop + 1, bytes.length);

export function parseEnvelope(bytes: Buffer): Envelope {
  const headerStop = lineEnd(bytes, 0);
  const header = jsonObject(bytes, 'envelope header', 0, headerStop);
  const items: Envelope['items'] = [];
  let at = nextLine(bytes, headerStop);
  while (at < bytes.length) {
    const start = at;
    const stop = lineEnd(bytes, start);
    at = nextLine(bytes, stop);
    // Blank lines between items (a trailing newline, a payload's own) carry nothing.
    if (stop === start || (stop === start + 1 && bytes[start] === 0x0d)) continue;
    const itemHeader = isCheckInHeader(bytes, start, stop) ? CHECK_IN_HEADER : jsonObject(bytes, `item ${items.length + 1} header`, start, stop);
    const length = itemHeader['length'];
    let payload: Buffer;
    if (typeof length === 'number') {
      if (!Number.isInteger(length) || length < 0 || at + length > bytes.length) throw invalidEnvelope(`item ${items.length + 1} says it is ${length} bytes long, but the envelope ends before`);
      payload = bytes.subarray(at, at + length);
      at += length;
      if (bytes[at] === NEWLINE) at += 1;
    } else {
      const payloadStop = lineEnd(bytes, at);
      payload = bytes.subarray(at, payloadStop);
      at = nextLine(bytes, payloadStop);
    }
    items.push({ header: itemHeader, payload });
  }
  return { header, items };
}

function isCheckInHeader(bytes: Buffer, start: number, stop: number): boolean {
  return stop - start === CHECK_IN_HEADER_BYTES.length && bytes.compare(CHECK_IN_HEADER_BYTES, 0, CHECK_IN_HEADER_BYTES.length, start, stop) === 0;
}

/** The JSON object in `bytes` from `start` to `stop` (all of it by default), or a 400 naming `what`. */
export function jsonObject(bytes: Buffer, what: string, start = 0, stop = bytes.length): Record<string, unknown> {
  let value: unknown;
  try {
    // Decoded where it lies in the envelope, without a Buffer of its own for each line.
    value = JSON.parse(bytes.toString('utf8', start, stop));
  } catch {
    throw invalidEnvelope(`the ${what} is not JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidEnvelope(`the ${what} is not a JSON object`);
  return value as Record<string, unknown>;
}

export const invalidEnvelope = (reason: string) => new HttpError(400, `invalid envelope: ${reason}`);

/** The public key of `X-Sentry-Auth: Sentry sentry_key=<key>, sentry_version=7, …` (or an Authorization header of that form). */
export function sentryKeyFromAuth(header: string | undefined): string | null {
  if (!header) return null;
  const match = /(?:^|[\s,])sentry_key\s*=\s*([^,\s]+)/i.exec(header);
  return match ? match[1]! : null;
}

/** The public key of a DSN, `http://<key>@host/<project>` (an envelope's `dsn` header, sent through a tunnel). */
export function sentryKeyFromDsn(dsn: unknown): string | null {
  if (typeof dsn !== 'string') return null;
  try {
    return decodeURIComponent(new URL(dsn).username) || null;
  } catch {
    return null;
  }
}
