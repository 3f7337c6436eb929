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
 * outright with a 413 while the rest is discarded as it arrives.
 */
export async function readCappedBody(request: IncomingMessage, keepBytes: number, refuseBytes: number): Promise<CappedBody> {
  const { kept, bytes } = await receiveBody(request, keepBytes, refuseBytes, () => new HttpError(413, `ping body is larger than ${refuseBytes} bytes`), 'ping body was not received in full');
  const text = utf8Within(kept, keepBytes, bytes > keepBytes);
  return { text, bytes, truncated: bytes > keepBytes };
}

/**
 * A request's body as it arrives: its first `keepBytes` and how many bytes there were. Past
 * `refuseBytes` (or declared past it) it is refused with `tooLarge()` (made only then: an error
 * captures its stack, which costs more than reading a small body) while the rest is discarded as
 * it arrives: destroying the stream, or closing on unread data, would reset the connection before
 * the client read the 413. A body cut short (the client went away, or timed out) is a 400 saying
 * `cutShort`: the client's fault, not the server's. Listened to rather than iterated: a ping's
 * body is one chunk, and an async iterator's promises cost more than reading it.
 */
export function receiveBody(request: IncomingMessage, keepBytes: number, refuseBytes: number, tooLarge: () => HttpError, cutShort: string): Promise<{ kept: Buffer; bytes: number }> {
  if (Number(request.headers['content-length'] ?? 0) > refuseBytes) {
    request.resume();
    return Promise.reject(tooLarge());
  }
  // Gone before it was read: neither its end nor its close is still to come.
  if (request.destroyed) return Promise.reject(new HttpError(400, cutShort));
  return new Promise((resolve, reject) => {
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let bytes = 0;
    const stop = () => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onCutShort);
      request.off('close', onCutShort);
    };
    const onData = (chunk: Buffer | string) => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      bytes += buffer.length;
      if (bytes > refuseBytes) {
        stop();
        request.resume();
        reject(tooLarge());
        return;
      }
      if (keptBytes < keepBytes) {
        const slice = buffer.length <= keepBytes - keptBytes ? buffer : buffer.subarray(0, keepBytes - keptBytes);
        kept.push(slice);
        keptBytes += slice.length;
      }
    };
    const onEnd = () => {
      stop();
      resolve({ kept: kept.length === 1 ? kept[0]! : Buffer.concat(kept, keptBytes), bytes });
    };
    const onCutShort = () => {
      stop();
      reject(new HttpError(400, cutShort));
    };
    request.on('data', onData);
    request.once('end', onEnd);
    request.once('error', onCutShort);
    request.once('close', onCutShort);
  });
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
