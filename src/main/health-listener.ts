import type { RequestListener, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type HttpTimeouts, createHttpServer } from '../api/http-server.js';
import type { ReadinessReport } from '../metrics/readiness.js';

export interface HealthListener {
  url: string;
  close: () => Promise<void>;
}

/**
 * /healthz and /readyz for a process without the api role (a projector, timer, checker or
 * notifier on its own), so that its container can be health-checked as the API's is: the same
 * bodies as the API's operations routes, and nothing else.
 */
export async function startHealthListener(
  readiness: () => Promise<ReadinessReport>,
  options: { port: number; host: string; timeouts: HttpTimeouts },
): Promise<HealthListener> {
  const server = createHttpServer(healthRoutes(readiness), options.timeouts).listen(options.port, options.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`,
    close: () => close(server),
  };
}

function healthRoutes(readiness: () => Promise<ReadinessReport>): RequestListener {
  return (request, response) => {
    const path = new URL(request.url ?? '/', 'http://health').pathname;
    if (path !== '/healthz' && path !== '/readyz') return send(response, 404, { error: `${path} is not served here: only /healthz and /readyz` });
    if (request.method !== 'GET' && request.method !== 'HEAD') return send(response, 405, { error: `${path} answers GET` }, { Allow: 'GET, HEAD' });
    // Liveness touches no store: a restart does not cure a database outage.
    if (path === '/healthz') return send(response, 200, { status: 'ok' });
    readiness().then(
      (report) => {
        if (report.ready) return send(response, 200, { status: 'ready', checks: report.checks });
        const failed = Object.entries(report.checks).filter(([, check]) => !check.ok).map(([name]) => name);
        send(response, 503, { error: `not ready: ${failed.join(', ')} failed`, checks: report.checks });
      },
      () => send(response, 503, { error: 'not ready: readiness could not be checked' }),
    );
  };
}

function send(response: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
  response.end(JSON.stringify(body));
}

function close(server: Server): Promise<void> {
  server.closeIdleConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
