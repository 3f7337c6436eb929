import type { IncomingMessage } from 'node:http';
import { HttpError } from './errors.js';

export interface CappedBody {
  text: string;
  /** Bytes as received, before the cap. */
  bytes: number;
  truncated: boolean;
}

/**
 * Reads a body keeping at most `keepBytes` of it; the rest is counted and discarded as it
 * streams, never buffered. Past `refuseBytes` the request is refused outright.
 */
export async function readCappedBody(request: IncomingMessage, keepBytes: number, refuseBytes: number): Promise<CappedBody> {
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let bytes = 0;
  for await (const chunk of request) {
    const buffer: Buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    bytes += buffer.length;
    if (bytes > refuseBytes) {
      request.destroy();
      throw new HttpError(413, `ping body is larger than ${refuseBytes} bytes`);
    }
    if (keptBytes < keepBytes) {
      const slice = buffer.subarray(0, keepBytes - keptBytes);
      kept.push(slice);
      keptBytes += slice.length;
    }
  }
  return { text: Buffer.concat(kept).toString('utf8'), bytes, truncated: bytes > keepBytes };
}
