/**
 * Preloaded into a benchmarked server (`node --import=tsx --import=<this file> …`): times each HTTP
 * request inside the server, from Node having parsed its headers to the response's last byte
 * handed to the socket. Beside the latency the load generator sees, it tells the server's own share
 * from what happens around it: the load generator waiting for a core on a machine the server keeps
 * busy, and requests waiting in the socket while the server's event loop is blocked (the loop
 * delay, sampled every 2 ms, shows those blocks).
 *
 * On SIGUSR2 it writes what it measured since the last signal as JSON to BENCH_LATENCY_FILE (via
 * a rename, so a reader never sees half a file) and starts over: the benchmark signals once before
 * a phase to start clean and once after it to collect.
 */
import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import { renameSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';
import { percentiles } from './stats.js';

export interface ServerLatency {
  requests: number;
  p50_ms: number;
  p99_ms: number;
  loop_delay_p99_ms: number;
  loop_delay_max_ms: number;
}

const file = process.env['BENCH_LATENCY_FILE'];
if (isMainThread && file) {
  const startedAt = new WeakMap<IncomingMessage, number>();
  let durations: number[] = [];
  const loopDelay = monitorEventLoopDelay({ resolution: 2 });
  loopDelay.enable();
  subscribe('http.server.request.start', (message) => {
    startedAt.set((message as { request: IncomingMessage }).request, performance.now());
  });
  subscribe('http.server.response.finish', (message) => {
    const started = startedAt.get((message as { request: IncomingMessage }).request);
    if (started !== undefined) durations.push(performance.now() - started);
  });
  process.on('SIGUSR2', () => {
    const { p50, p99 } = percentiles(durations);
    const measured: ServerLatency = {
      requests: durations.length,
      p50_ms: p50,
      p99_ms: p99,
      // The histogram counts from the 2 ms the timer was due after, not from zero.
      loop_delay_p99_ms: Math.max(0, loopDelay.percentile(99) / 1e6 - 2),
      loop_delay_max_ms: Math.max(0, loopDelay.max / 1e6 - 2),
    };
    durations = [];
    loopDelay.reset();
    writeFileSync(`${file}.partial`, JSON.stringify(measured));
    renameSync(`${file}.partial`, file);
  });
}
