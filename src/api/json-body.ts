import type { Middleware } from 'koa';
import type { IncomingMessage } from 'node:http';
import { koaBody } from 'koa-body';
import { HttpError } from '../web/errors.js';

/**
 * Parses JSON bodies up to a limit. A body that is not JSON is a 400, one over the limit a 413,
 * one of another media type a 415. A POST with no body at all (pause, acknowledge…) is fine.
 */
export function jsonBody(limitBytes: number): Middleware {
  const parse = koaBody({ json: true, jsonStrict: true, jsonLimit: limitBytes, multipart: false, urlencoded: false, text: false });
  return async (ctx, next) => {
    if (!ctx.is('application/json', 'application/*+json')) {
      const hasBody = Number(ctx.get('Content-Length') || 0) > 0 || (ctx.get('Transfer-Encoding') !== '' && (await streamsAnything(ctx.req)));
      if (hasBody) throw new HttpError(415, 'request body must be JSON, sent with Content-Type: application/json');
    }
    try {
      await parse(ctx, async () => undefined);
    } catch (error) {
      const status = (error as { status?: unknown }).status;
      if (status === 413) {
        // The rest is discarded as it streams: closing on unread data would reset the connection before the client reads the 413.
        ctx.req.resume();
        throw new HttpError(413, `request body is larger than the limit of ${limitBytes} bytes`);
      }
      if (status === 400) {
        // co-body's strict mode refuses JSON that is not an object or array (null, 3, "x") before parsing it.
        const primitive = error instanceof Error && error.message.includes('only supports object and array');
        throw new HttpError(400, primitive ? 'request body must be a JSON object' : 'request body is not valid JSON');
      }
      // Decompression errors (zlib, brotli) carry no status: a body that is not what its Content-Encoding says is the client's fault.
      if (status === undefined && !/^(identity)?$/i.test(ctx.get('Content-Encoding'))) {
        throw new HttpError(400, `request body is not valid ${ctx.get('Content-Encoding')} data`);
      }
      throw error;
    }
    await next();
  };
}

/**
 * Whether a body sent without a length (chunked) holds anything: one with no bytes at all is no
 * body, as the POSTs that take none (pause, acknowledge…) may arrive (docs/api.md, "Conventions"). The rest of one that does is discarded
 * as it streams, for the 415 to reach the client.
 */
async function streamsAnything(request: IncomingMessage): Promise<boolean> {
  for await (const chunk of request.iterator({ destroyOnReturn: false })) {
    // eslint-disable-next-line @typescript-eslint/no-unsafe-member-access -- Node types a stream's chunks any; with no encoding set they are Buffers
    if (chunk.length > 0) {
      request.resume();
      return true;
    }
  }
  return false;
}
