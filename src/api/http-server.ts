import { type IncomingMessage, type RequestListener, STATUS_CODES, type Server, ServerResponse, createServer } from 'node:http';
import type { Duplex } from 'node:stream';

export interface HttpTimeouts {
  /** All request headers must have arrived this long after the connection started the request. */
  headersTimeoutMs: number;
  /** The whole request, body included, must have arrived within this. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
}

/**
 * The API's HTTP server, bounded against slow clients (slowloris): Node enforces the header and
 * request timeouts only when it sweeps its connections, every 30 s by default, so the sweep runs
 * often enough for the bounds to mean what they say. What Node answers by itself (a malformed
 * request line or header, a timeout, headers too large, an Expect it cannot meet) gets the API's
 * `{ error }` body too.
 */
export function createHttpServer(listener: RequestListener, timeouts: HttpTimeouts): Server {
  const server = createServer(
    {
      headersTimeout: timeouts.headersTimeoutMs,
      requestTimeout: timeouts.requestTimeoutMs,
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(timeouts.headersTimeoutMs / 4))),
    },
    listener,
  );
  server.keepAliveTimeout = timeouts.keepAliveTimeoutMs;
  server.on('clientError', answerClientError);
  server.on('checkExpectation', (_request: IncomingMessage, response: ServerResponse) => {
    response.writeHead(417, { 'Content-Type': 'application/json; charset=utf-8', 'X-Content-Type-Options': 'nosniff', Connection: 'close' });
    response.end(JSON.stringify({ error: 'the only Expect this server meets is 100-continue' }));
  });
  return server;
}

const CLIENT_ERRORS: Record<string, [number, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'the request was not received in time'],
  HPE_HEADER_OVERFLOW: [431, 'request headers are too large'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'chunk extensions are too large'],
};

function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // Like Node's own handler: never write into a response that has already started.
  const inFlight: unknown = Reflect.get(socket, '_httpMessage');
  if (!socket.writable || error.code === 'ECONNRESET' || (inFlight instanceof ServerResponse && inFlight.headersSent)) {
    socket.destroy();
    return;
  }
  const [status, message] = CLIENT_ERRORS[error.code ?? ''] ?? [400, 'malformed HTTP request'];
  const body = JSON.stringify({ error: message });
  // A body after a HEAD answer would read as garbage to the client; Node hands over the bytes it failed on.
  const rawPacket: unknown = Reflect.get(error, 'rawPacket');
  const toHead = Buffer.isBuffer(rawPacket) && rawPacket.subarray(0, 5).toString('latin1') === 'HEAD ';
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${toHead ? '' : body}`,
  );
}
