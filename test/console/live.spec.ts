import { expect } from 'chai';
import { type ClientRequest, type IncomingMessage, request } from 'node:http';
import { chromiumUnavailable } from '../support/chromium.js';
import { ConsoleBrowser } from '../support/console-browser.js';
import { eventually } from '../support/eventually.js';
import { type Scrape, parsePrometheusText } from '../support/prometheus-text.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';
import { postKeySignIn } from '../support/people.js';

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
    const response = await postKeySignIn(vigil.url, { api_key: key });
    expect(response.status).to.equal(303);
    return `vigil_session=${/vigil_session=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1] ?? ''}`;
  }

  /** Opens the project's stream; resolves once the answer's head has arrived. */
  function open(cookie: string, project = projectId): Promise<OpenStream> {
    const { hostname, port } = new URL(vigil.url);
    return new Promise((resolve, reject) => {
      let outgoing: ClientRequest | null = null;
      const stream: OpenStream = {
        status: 0, body: '', events: [], ended: false,
        close: () => outgoing?.destroy(),
      };
      outgoing = request(
        { host: hostname, port, path: `/projects/${project}/events`, headers: { Cookie: cookie, Accept: 'text/event-stream' }, agent: false },
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

  it('sends a stream that opens after the clock moved its rows as they are now, never as an older stream was last sent them', async () => {
    expect((await vigil.request('GET', `/v1/ping/${monitorId}`)).status).to.equal(200);
    const cookie = await signIn();
    const earlier = await open(cookie);
    await eventually(() => expect(statusesOf(earlier)).to.deep.equal(['UP']), 10_000);

    // Past the 10 minutes the heartbeat is expected in, with no write to the log: the page a
    // person opens now says LATE, and its stream must not take it back to UP.
    vigil.clock.advance(11 * 60_000);
    const later = await open(cookie);
    await eventually(() => expect(statusesOf(later)).to.deep.equal(['LATE']), 10_000);
    await eventually(() => expect(statusesOf(earlier)).to.deep.equal(['UP', 'LATE']), 10_000);
    expect(statusesOf(later)).to.deep.equal(['LATE']);
  });

  // As docs/console.md states them.
  const PER_SESSION = 4;
  const PER_USER = 8;

  it('closes a session\'s oldest stream, telling it why, when the session opens one past its cap', async () => {
    const cookie = await signIn();
    const opened: OpenStream[] = [];
    for (let i = 0; i < PER_SESSION; i += 1) opened.push(await open(cookie));
    await eventually(() => {
      for (const stream of opened) expect(statusesOf(stream)).to.deep.equal(['WAITING']);
    }, 10_000);

    const newest = await open(cookie);
    expect(newest.status).to.equal(200);
    await eventually(() => expect(opened[0]!.ended).to.equal(true), 10_000);
    expect(opened[0]!.events.at(-1)?.event).to.equal('replaced');
    await eventually(() => expect(statusesOf(newest)).to.deep.equal(['WAITING']), 10_000);
    expect(opened.slice(1).map((s) => s.ended)).to.deep.equal([false, false, false]);
    expect((await scrape()).value('vigil_console_live_streams')).to.equal(PER_SESSION);

    // The streams left open still follow the project.
    expect((await vigil.request('GET', `/v1/ping/${monitorId}/fail`)).status).to.equal(200);
    await eventually(() => {
      for (const stream of [...opened.slice(1), newest]) expect(statusesOf(stream).at(-1)).to.equal('DOWN');
    }, 10_000);
    expect(statusesOf(opened[0]!)).to.deep.equal(['WAITING']);
  });

  it('keeps a project\'s rows, rendered once, when the stream it replaces was the only one on that project', async () => {
    const owner = await vigil.user('other-owner@example.com');
    key = await vigil.accountKey(owner, ALL_SCOPES);
    const [first, second] = [await vigil.project(owner, 'First'), await vigil.project(owner, 'Second')];
    const cookie = await signIn();
    const oldest = await open(cookie, first);
    const others: OpenStream[] = [];
    for (let i = 1; i < PER_SESSION; i += 1) others.push(await open(cookie, second));
    await eventually(() => {
      for (const stream of [oldest, ...others]) expect(stream.events.map((e) => e.event)).to.deep.equal(['summary']);
    }, 10_000);
    expect((await scrape()).value('vigil_console_live_renders_total')).to.equal(2);

    const newest = await open(cookie, first);
    await eventually(() => expect(oldest.ended).to.equal(true), 10_000);
    // A project rendered again would send its rows only once the render is done.
    await eventually(() => expect(newest.events.map((e) => e.event)).to.deep.equal(['summary']), 10_000);
    expect((await scrape()).value('vigil_console_live_renders_total')).to.equal(2);
  });

  it('refuses with a 429 a stream past the user\'s cap over all of their sessions, until one of theirs closes', async () => {
    const opened: OpenStream[] = [];
    for (const cookie of [await signIn(), await signIn()]) {
      for (let i = 0; i < PER_USER / 2; i += 1) opened.push(await open(cookie));
    }
    expect(opened.map((s) => s.status)).to.deep.equal(Array(PER_USER).fill(200));

    const third = await signIn();
    const refused = await open(third);
    expect(refused.status).to.equal(429);
    await eventually(() => expect(refused.ended).to.equal(true), 10_000);
    expect(JSON.parse(refused.body)).to.have.property('error').that.matches(/8 live streams/);
    expect(opened.some((s) => s.ended)).to.equal(false);

    // A browser that goes away gives its slot back.
    opened[0]!.close();
    await eventually(async () => expect((await scrape()).value('vigil_console_live_streams')).to.equal(PER_USER - 1), 10_000);
    const admitted = await open(third);
    expect(admitted.status).to.equal(200);
    await eventually(() => expect(statusesOf(admitted)).to.deep.equal(['WAITING']), 10_000);
  });

  it('says on the oldest tab of a browser, which then stays closed, that its live updates stopped for a newer tab', async function () {
    const unavailable = chromiumUnavailable();
    if (unavailable) this.skip();
    const browser = await ConsoleBrowser.launch(vigil.url, 'live-streams');
    try {
      const context = await browser.context();
      const tabs = [await browser.signIn(context, key, `/projects/${projectId}`)];
      const events = () => browser.requested.filter((url) => url === `${vigil.url}/projects/${projectId}/events`).length;
      await eventually(() => expect(events()).to.equal(1), 10_000);
      for (let i = 1; i <= PER_SESSION; i += 1) {
        const tab = await context.newPage();
        await tab.goto(`${vigil.url}/projects/${projectId}`);
        await eventually(() => expect(events()).to.equal(i + 1), 10_000);
        tabs.push(tab);
      }
      const notice = tabs[0]!.locator('[data-live-stopped]');
      await notice.waitFor({ state: 'visible', timeout: 10_000 });
      expect(await notice.innerText()).to.contain('Live updates stopped here');
      expect(await tabs[1]!.locator('[data-live-stopped]').isVisible()).to.equal(false);

      // Past the stream's retry delay: a tab that reconnected would close the next oldest in turn.
      await tabs[0]!.waitForTimeout(3500);
      expect(events()).to.equal(PER_SESSION + 1);
      expect((await scrape()).value('vigil_console_live_streams')).to.equal(PER_SESSION);
      expect((await vigil.request('GET', `/v1/ping/${monitorId}/fail`)).status).to.equal(200);
      await tabs[PER_SESSION]!.locator(`tr[data-monitor-id="${monitorId}"][data-status="DOWN"]`).waitFor({ timeout: 10_000 });
      expect(await tabs[0]!.locator(`tr[data-monitor-id="${monitorId}"]`).getAttribute('data-status')).to.equal('WAITING');
      await context.close();
    } finally {
      await browser.close();
    }
  });
});
