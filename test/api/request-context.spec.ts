import { expect } from 'chai';
import Koa from 'koa';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { requestContext } from '../../src/web/request-context.js';
import { capturedLog } from '../support/captured-log.js';

describe('Request logging', () => {
  let server: Server;
  let url: string;
  let lines: Record<string, unknown>[];

  async function start(level: string) {
    const log = capturedLog(level);
    lines = log.lines;
    const app = new Koa();
    app.use(requestContext(log.logger));
    app.use((ctx) => {
      ctx.status = ctx.path.endsWith('/missing') ? 404 : 200;
      ctx.body = { ok: ctx.status === 200 };
    });
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Koa's callback answers its own errors
    server = createServer(app.callback()).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  afterEach(() => new Promise((resolve) => server.close(resolve)));

  const get = async (path: string) => {
    const response = await fetch(`${url}${path}`, { headers: { 'X-Request-Id': `req-${path.replaceAll('/', '-')}` } });
    await response.text();
  };
  const logged = () => lines.filter((line) => line.msg === 'request').map((line) => ({ path: line.path, status: line.status, level: line.level }));

  it('logs every request at info with its id, path and status', async () => {
    await start('info');
    await get('/v1/projects');
    expect(logged()).to.deep.equal([{ path: '/v1/projects', status: 200, level: 30 }]);
    expect(lines[0]!.request_id).to.equal('req--v1-projects');
  });
});
