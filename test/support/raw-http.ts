import { Agent, type OutgoingHttpHeaders, request } from 'node:http';
import { Socket, connect } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * Sends exactly what it is given through node:http (which, unlike fetch, lets a test send repeated
 * headers, latin-1 bytes in a path and a body of any bytes under any Content-Type), and from
 * another loopback address than 127.0.0.1 (`localAddress`: 127.0.0.2 is this machine too).
 */
export function send(
  url: string,
  method: string,
  path: string,
  options: { headers?: OutgoingHttpHeaders; body?: string | Buffer; agent?: Agent; localAddress?: string } = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const local = options.localAddress === undefined ? {} : { localAddress: options.localAddress };
    const outgoing = request({ host: hostname, port, method, path, headers: options.headers ?? {}, agent: options.agent ?? false, ...local }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

export interface SocketOutcome {
  /** Everything the server wrote before it closed the connection. */
  received: string;
  /** When the server closed it, in ms after the connection was opened; null if it never did within the wait. */
  closedAfterMs: number | null;
}

/**
 * Opens a connection and lets `talk` write to it (slowly, if it likes) while collecting what the
 * server answers, until the server closes the connection or `waitMs` passes.
 */
export async function converse(url: string, talk: (socket: Socket, closed: () => boolean) => Promise<void>, waitMs: number): Promise<SocketOutcome> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const opened = Date.now();
  const chunks: Buffer[] = [];
  let closedAfterMs: number | null = null;
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      closedAfterMs = Date.now() - opened;
      resolve();
    }),
  );
  const talking = talk(socket, () => closedAfterMs !== null).catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([closed, new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)))]);
  clearTimeout(timer);
  socket.destroy();
  await talking;
  return { received: Buffer.concat(chunks).toString('latin1'), closedAfterMs };
}

/** Writes `text` one byte at a time, `gapMs` apart, until it is all sent or the server hangs up. */
export async function trickle(socket: Socket, text: string, gapMs: number, closed: () => boolean): Promise<void> {
  for (const byte of Buffer.from(text, 'latin1')) {
    if (closed()) return;
    socket.write(Buffer.of(byte));
    await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
}

/** The status and body of a raw HTTP/1.1 answer as `converse` collected it. */
export function parseRawResponse(received: string): { status: number; body: string } | null {
  const match = /^HTTP\/1\.1 (\d{3}) [^\r\n]*\r\n([\s\S]*?)\r\n\r\n([\s\S]*)$/.exec(received);
  if (!match) return null;
  const chunked = /^transfer-encoding: chunked/im.test(match[2]!);
  return { status: Number(match[1]), body: chunked ? dechunk(match[3]!) : match[3]! };
}

function dechunk(raw: string): string {
  let body = '';
  let rest = raw;
  for (;;) {
    const line = /^([0-9a-f]+)\r\n/i.exec(rest);
    if (!line) return body;
    const size = parseInt(line[1]!, 16);
    if (size === 0) return body;
    body += rest.slice(line[0].length, line[0].length + size);
    rest = rest.slice(line[0].length + size + 2);
  }
}

export interface UploadOutcome {
  status: number | null;
  text: string;
  /** Bytes the client had handed to its socket when the answer arrived (or when the server hung up). */
  sentWhenAnswered: number;
  /** How far this process's live heap and buffers (after a collection) grew above where they started, at the worst moment. */
  peakGrowthBytes: number;
  /** A connection error instead of an answer, if that is what happened. */
  failure: string | null;
}

/**
 * Streams `totalBytes` of `fill` at the server, produced as it goes (never held whole), stopping as
 * soon as an answer arrives; measures memory along the way, since the server runs in this process.
 * Memory is read after a garbage collection: chunks read and dropped are not chunks held.
 */
export async function upload(
  url: string,
  method: string,
  path: string,
  headers: OutgoingHttpHeaders,
  totalBytes: number,
  fill = 'a',
): Promise<UploadOutcome> {
  const { hostname, port } = new URL(url);
  const chunk = Buffer.alloc(64 * 1024, fill);
  const collect = garbageCollector();
  const used = () => {
    collect();
    const memory = process.memoryUsage();
    return memory.heapUsed + memory.arrayBuffers;
  };
  const baseline = used();
  let peak = baseline;
  let sent = 0;
  let sentWhenAnswered = -1;
  // Keep-alive, like any HTTP/1.1 client: asked to close, the server would hang up on the unsent rest and the reset could swallow its answer.
  const agent = new Agent({ keepAlive: true });
  const outgoing = request({ host: hostname, port, method, path, headers, agent });
  const answered = new Promise<{ status: number | null; text: string; failure: string | null }>((resolve) => {
    outgoing.on('response', (response) => {
      sentWhenAnswered = sent;
      const chunks: Buffer[] = [];
      response.on('data', (data: Buffer) => chunks.push(data));
      const done = () => resolve({ status: response.statusCode ?? null, text: Buffer.concat(chunks).toString('utf8'), failure: null });
      response.on('end', done);
      response.on('error', done);
    });
    outgoing.on('error', (error) => {
      if (sentWhenAnswered < 0) sentWhenAnswered = sent;
      resolve({ status: null, text: '', failure: String(error) });
    });
  });
  let over = false;
  void answered.then(() => (over = true));
  while (!over && sent < totalBytes) {
    const piece = chunk.subarray(0, Math.min(chunk.length, totalBytes - sent));
    const flowing = outgoing.write(piece);
    sent += piece.length;
    if (sent % (1024 * 1024) === 0) peak = Math.max(peak, used());
    if (!flowing) await Promise.race([new Promise((resolve) => outgoing.once('drain', resolve)), answered]);
    else await new Promise((resolve) => setImmediate(resolve));
  }
  if (!over) outgoing.end();
  const outcome = await answered;
  peak = Math.max(peak, used());
  outgoing.destroy();
  agent.destroy();
  return { ...outcome, sentWhenAnswered, peakGrowthBytes: peak - baseline };
}

/** V8's gc(), which mocha does not expose; a no-op if it cannot be had. */
function garbageCollector(): () => void {
  setFlagsFromString('--expose-gc');
  const gc: unknown = runInNewContext('gc');
  return typeof gc === 'function' ? () => void gc() : () => undefined;
}
