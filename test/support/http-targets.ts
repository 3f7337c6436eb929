import { type IncomingMessage, type ServerResponse, createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (request: SeenRequest, response: ServerResponse) => void;

export interface Target {
  url: string;
  seen: SeenRequest[];
  close: () => Promise<void>;
}

/** A real server on 127.0.0.1 with an ephemeral port, recording what it was asked; `onConnection` sees each socket it accepts. */
export async function startTarget(handler: Handler, tls?: { cert: string; key: string }, onConnection?: (socket: Socket) => void): Promise<Target> {
  const seen: SeenRequest[] = [];
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      seen.push(request);
      handler(request, res);
    });
  };
  const server = tls ? createHttpsServer(tls, listener) : createHttpServer(listener);
  if (onConnection) server.on('connection', onConnection);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const reply = (status: number, body = '', headers: Record<string, string> = {}): Handler => (_request, response) => {
  response.writeHead(status, headers);
  response.end(body);
};
