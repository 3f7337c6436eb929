import { expect } from 'chai';
import { type ClientRequest, type IncomingMessage, request } from 'node:http';
import { eventually } from '../support/eventually.js';
import { type Scrape, parsePrometheusText } from '../support/prometheus-text.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

interface ServerSentEvent {
  event: string;
  data: string;
}

/** A dashboard's live stream as an EventSource holds it, read over its own connection. */
interface OpenStream {
  status: number;
  body: string;
  events: ServerSentEvent[];
  ended: boolean;
  close(): void;
}

/** The dashboard's live streams over plain HTTP, as the page's EventSource opens them (no browser needed). */
describe('Web console live streams', function () {
  this.timeout(60_000);
  let vigil: TestVigil;
  let streams: OpenStream[];
  let key: string;
  let projectId: string;
  let monitorId: string;

  beforeEach(async () => {
    streams = [];
    vigil = await TestVigil.start();
    const owner = await vigil.user('owner@example.com');
    key = await vigil.accountKey(owner, ALL_SCOPES);
    projectId = await vigil.project(owner, 'Live');
    const created = await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Queue worker', type: 'JOB_HEARTBEAT', schedule: '10m', failure_tolerance: 1 } });
    expect(created.status, created.text).to.equal(201);
    monitorId = created.body.monitor.id;
  });

  afterEach(async () => {
    for (const stream of streams) stream.close();
    await vigil?.stop();
  });

  async function signIn(): Promise<string> {
    const response = await fetch(`${vigil.url}/sign-in`, {
      method: 'POST', redirect: 'manual', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ api_key: key }),
    });
    expect(response.status).to.equal(303);
    return `vigil_session=${/vigil_session=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1] ?? ''}`;
  }

  /** Opens the project's stream; resolves once the answer's head has arrived. */
  function open(cookie: string): Promise<OpenStream> {
    const { hostname, port } = new URL(vigil.url);
    return new Promise((resolve, reject) => {
      let outgoing: ClientRequest | null = null;
      const stream: OpenStream = {
        status: 0, body: '', events: [], ended: false,
        close: () => outgoing?.destroy(),
      };
      outgoing = request(
        { host: hostname, port, path: `/projects/${projectId}/events`, headers: { Cookie: cookie, Accept: 'text/event-stream' }, agent: false },
        (response: IncomingMessage) => {
          stream.status = response.statusCode ?? 0;
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            stream.body += chunk;
            const blocks = stream.body.split('\n\n');
            stream.events = blocks.slice(0, -1).flatMap((block) => {
              const event = /^event: (.*)$/m.exec(block)?.[1];
              return event ? [{ event, data: /^data: (.*)$/m.exec(block)?.[1] ?? '' }] : [];
            });
          });
          const end = () => {
            stream.ended = true;
          };
          response.on('end', end);
          response.on('close', end);
          response.on('error', end);
          resolve(stream);
        },
      );
      outgoing.on('error', (error) => (stream.status === 0 ? reject(error) : undefined));
      outgoing.end();
      streams.push(stream);
    });
  }

  async function scrape(): Promise<Scrape> {
    return parsePrometheusText(await (await fetch(`${vigil.url}/metrics`)).text());
  }

  /** The status each `monitor` event the stream received gave the monitor, in order. */
  const statusesOf = (stream: OpenStream) => stream.events.filter((e) => e.event === 'monitor').map((e) => (JSON.parse(e.data) as { status: string }).status);

  it('renders a project\'s rows once for all of its open streams, when they open and at each change', async () => {
    const cookie = await signIn();
    const opened = [await open(cookie), await open(cookie), await open(cookie)];
    await eventually(() => {
      for (const stream of opened) expect(statusesOf(stream)).to.deep.equal(['WAITING']);
    }, 10_000);
    expect((await scrape()).value('vigil_console_live_renders_total')).to.equal(1);

    expect((await vigil.request('GET', `/v1/ping/${monitorId}/fail`)).status).to.equal(200);
    await eventually(() => {
      for (const stream of opened) expect(statusesOf(stream)).to.deep.equal(['WAITING', 'DOWN']);
    }, 10_000);
    expect((await scrape()).value('vigil_console_live_renders_total')).to.equal(2);
    // The same bytes reached every stream.
    expect(new Set(opened.map((s) => s.body)).size).to.equal(1);
  });
});
