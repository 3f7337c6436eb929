import { Refusal } from '../app/refusal.js';
import type { IncomingMessage } from 'node:http';
import { HttpError } from '../web/errors.js';

export interface CappedBody {
  text: string;
  /** Bytes as received, before the cap. */
  bytes: number;
  truncated: boolean;
}

/**
 * Reads a body keeping at most `keepBytes` of it; the rest is counted and discarded as it
 * streams, never buffered. Past `refuseBytes` (or declared past it) the request is refused
 * outright with a 413 while the rest is discarded as it arrives. Destroying the stream, or
 * closing on unread data, would reset the connection before the client read the 413.
 */
export async function readCappedBody(request: IncomingMessage, keepBytes: number, refuseBytes: number): Promise<CappedBody> {
  // Made only when needed: an error captures its stack, which costs more than reading a small body.
  const tooLarge = () => new HttpError(413, `ping body is larger than ${refuseBytes} bytes`);
  if (Number(request.headers['content-length'] ?? 0) > refuseBytes) throw tooLarge();
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let bytes = 0;
  try {
    for await (const chunk of request.iterator({ destroyOnReturn: false })) {
      // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- Node types a stream's chunks any: a string or, with no encoding set, a Buffer
      const buffer: Buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      bytes += buffer.length;
      if (bytes > refuseBytes) {
        request.resume();
        throw tooLarge();
      }
      if (keptBytes < keepBytes) {
        const slice = buffer.subarray(0, keepBytes - keptBytes);
        kept.push(slice);
        keptBytes += slice.length;
      }
    }
  } catch (error) {
    if (error instanceof Refusal) throw error;
    // The client went away mid-body (or timed out): its fault, not the server's.
    throw new HttpError(400, 'ping body was not received in full');
  }
  const text = utf8Within(Buffer.concat(kept), keepBytes, bytes > keepBytes);
  return { text, bytes, truncated: bytes > keepBytes };
}

/**
 * The bytes as text of at most `limit` bytes of UTF-8. A character the cap cut in two is left
 * out rather than decoded as U+FFFD, which would take the text past the cap; so are the last
 * characters of one whose invalid bytes, each decoded as that 3-byte character, would.
 */
function utf8Within(bytes: Buffer, limit: number, cut: boolean): string {
  const text = new TextDecoder().decode(bytes, { stream: cut });
  return Buffer.byteLength(text) <= limit ? text : new TextDecoder().decode(Buffer.from(text).subarray(0, limit), { stream: true });
}
