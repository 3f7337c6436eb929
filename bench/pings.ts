/**
 * Ping ingestion on the embedded store: autocannon drives GET /v1/ping/<id> over many monitors
 * with concurrent connections, next to a bare Node http server answering 200 in the same run.
 * Afterwards every acknowledged ping id is looked up in the ping history.
 *   npm run bench:pings [-- --connections 64 --seconds 10 --monitors 200]
 */
import autocannon from 'autocannon';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { loadConfig } from '../src/main/config.js';
import { startVigil } from '../src/main/vigil.js';
import { makeTempDir } from '../test/support/temp-dir.js';
import { TestVigil } from '../test/support/test-vigil.js';

const { values } = parseArgs({
  options: { connections: { type: 'string', default: '64' }, seconds: { type: 'string', default: '10' }, monitors: { type: 'string', default: '200' } },
});
const connections = Number(values.connections);
const duration = Number(values.seconds);
const monitorCount = Number(values.monitors);

async function drive(url: string, paths: string[], onBody?: (body: string) => void) {
  let next = 0;
  const result = await autocannon({
    url,
    connections,
    duration,
    requests: [
      {
        setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length]! }),
        ...(onBody ? { onResponse: (status: number, body: string) => (status === 200 ? onBody(body) : undefined) } : {}),
      },
    ],
  });
  return {
    rate: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    errors: result.non2xx + result.errors + result.timeouts,
  };
}

const bare = createServer((_request, response) => {
  response.writeHead(200, { 'Content-Type': 'application/json' });
  response.end('{"ok":true}');
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const baseline = await drive(`http://127.0.0.1:${(bare.address() as AddressInfo).port}`, ['/']);
bare.close();

const dir = makeTempDir('vigil-bench-pings');
const env = { VIGIL_DATA_DIR: dir.path, PORT: '0', HOST: '127.0.0.1', VIGIL_LOG_LEVEL: 'silent', VIGIL_RATE_LIMIT_REQUESTS: '1000000' };
const seed = await TestVigil.reopen(dir.path, env);
const key = await seed.accountKey(await seed.user('bench@example.com'), ['manage_projects', 'manage_monitors']);
const projectId = (await seed.request('POST', '/v1/projects', { key, body: { name: 'Bench' } })).body.project.id;
const monitorIds: string[] = [];
for (let i = 0; i < monitorCount; i++) {
  const created = await seed.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: `m${i}`, type: 'JOB_HEARTBEAT', schedule: '1h', retention_count: 1000 } });
  monitorIds.push(created.body.monitor.id);
}
await seed.stopKeepingData();

const vigil = await startVigil(loadConfig(env), { roles: ['api', 'projector'], logger: pino({ level: 'silent' }) });
const acknowledged: string[] = [];
const measured = await drive(vigil.url!, monitorIds.map((id) => `/v1/ping/${id}`), (body) => acknowledged.push(JSON.parse(body).ping_id));
await vigil.projector!.waitForPosition(await vigil.stores.events.headPosition(), 60_000);

const stored = new Set<string>();
for (const monitorId of monitorIds) {
  for (const found of await vigil.stores.readModels.find<{ ping_id: string }>('pings', { monitor_id: monitorId })) stored.add(found.doc.ping_id);
}
const missing = acknowledged.filter((id) => !stored.has(id)).length;
await vigil.stop();
dir.remove();

const row = (name: string, r: typeof baseline) =>
  `${name.padEnd(34)} ${r.rate.toFixed(0).padStart(8)} req/s   p50 ${String(r.p50).padStart(3)} ms   p99 ${String(r.p99).padStart(4)} ms   errors ${r.errors}`;
console.log(`machine: ${process.platform} ${process.arch}, node ${process.version}; ${connections} connections, ${duration} s each, same process as the load`);
console.log(row('bare node:http (baseline)', baseline));
console.log(row(`vigil GET /v1/ping (${monitorCount} monitors)`, measured));
console.log(`ratio: vigil at ${((measured.rate / baseline.rate) * 100).toFixed(0)}% of the bare server`);
console.log(`acknowledged pings: ${acknowledged.length}; in the history: ${acknowledged.length - missing}; missing: ${missing}`);
if (missing > 0) process.exitCode = 1;
