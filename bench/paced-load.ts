import { Agent, request } from 'node:http';

export interface PacedResult {
  /** Responses per second actually completed. */
  rate: number;
  p50: number;
  p99: number;
  errors: number;
}

/**
 * Open-loop load at a fixed rate: requests are due at evenly spaced moments and each one's latency
 * counts from when it was due, so a slow server cannot slow the load down and hide its queue
 * (coordinated omission). autocannon's overallRate is not used here because it sends each
 * second's quota as one burst at the start of the second and back-fills every slow sample with
 * 1 ms steps, which turns "latency at half load" into latency at full load.
 */
export async function pacedLoad(options: {
  url: string;
  paths: readonly string[];
  ratePerSecond: number;
  seconds: number;
  connections: number;
  onBody?: (body: string) => void;
}): Promise<PacedResult> {
  // FIFO spreads the requests over every socket. Node's default (LIFO) reuses the busiest ones and
  // leaves others idle past the server's keep-alive timeout, and one of those taken up at the moment
  // the server closes it fails with ECONNRESET (seen as 1-5 errors in some runs, bare server too).
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections, scheduling: 'fifo' });
  const { hostname, port } = new URL(options.url);
  const total = Math.round(options.ratePerSecond * options.seconds);
  const latencies: number[] = [];
  let errors = 0;
  let sent = 0;
  let finished = 0;
  const started = performance.now();

  const send = (path: string, dueAt: number) =>
    new Promise<void>((resolve) => {
      const req = request({ agent, hostname, port, path, method: 'GET' }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          latencies.push(performance.now() - dueAt);
          if (response.statusCode === 200) options.onBody?.(Buffer.concat(chunks).toString('utf8'));
          else errors += 1;
          resolve();
        });
      });
      req.on('error', () => {
        errors += 1;
        resolve();
      });
      req.end();
    });

  const inFlight = new Set<Promise<void>>();
  await new Promise<void>((resolve) => {
    const tick = () => {
      const elapsed = performance.now() - started;
      const due = Math.min(total, Math.floor((elapsed / 1000) * options.ratePerSecond));
      for (; sent < due; sent++) {
        const dueAt = started + (sent * 1000) / options.ratePerSecond;
        const pending = send(options.paths[sent % options.paths.length]!, dueAt).then(() => {
          finished += 1;
          inFlight.delete(pending);
        });
        inFlight.add(pending);
      }
      if (sent >= total) resolve();
      else setTimeout(tick, 1);
    };
    tick();
  });
  await Promise.all(inFlight);
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]! * 10) / 10;
  return { rate: finished / seconds, p50: at(0.5), p99: at(0.99), errors };
}
