import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { randomBase62 } from '../../../src/app/random-tokens.js';
import { runSentryJob } from '../../support/sentry-job.js';
import { ALL_SCOPES, TestVigil } from '../../support/test-vigil.js';

/** Sentry Crons check-ins from the real @sentry/node SDK, its DSN pointed at Vigil with the project's ping key. */
describe('Sentry Crons check-ins', function () {
  this.timeout(60_000);
  let vigil: TestVigil;
  let key: string;
  let project: { id: string; ping_key: string };
  let dsn: string;
  before(async () => {
    vigil = await TestVigil.start({ env: { VIGIL_PING_PAYLOAD_LIMIT: '2000' } });
    key = await vigil.accountKey(await vigil.user('sentry@example.com'), ALL_SCOPES);
    project = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Crons' } })).body.project;
    expect((await vigil.request('PATCH', `/v1/projects/${project.id}`, { key, body: { auto_provisioning: { enabled: true } } })).status).to.equal(200);
    dsn = `http://${project.ping_key}@127.0.0.1:${new URL(vigil.url).port}/1`;
  });
  after(() => vigil.stop());

  async function bySlug(slug: string) {
    await vigil.settle();
    return ((await vigil.request('GET', `/v1/monitors?project_id=${project.id}`, { key })).body.monitors as Record<string, unknown>[]).find((m) => m['slug'] === slug);
  }
  const history = async (monitorId: unknown) => ((await vigil.request('GET', `/v1/monitors/${String(monitorId)}/pings?limit=100`, { key })).body.data as Record<string, unknown>[]).reverse();
  const allAnswered200 = (run: { sent: { statusCode: number | undefined; retryAfter: string | null; rateLimits: string | null }[] }) => {
    expect(run.sent.length).to.be.greaterThan(0);
    for (const sent of run.sent) expect(sent, 'no retry, no back-off').to.deep.equal({ statusCode: 200, retryAfter: null, rateLimits: null });
  };

  it('withMonitor with a crontab config creates a JOB_CRON monitor by its slug and records START then SUCCESS of one run', async () => {
    const config = { schedule: { type: 'crontab' as const, value: '*/5 * * * *' }, timezone: 'Europe/Berlin', checkinMargin: 2, maxRuntime: 10, failureIssueThreshold: 3 };
    const run = await runSentryJob({ dsn, steps: [{ op: 'withMonitor', slug: 'nightly-export', config }] });
    allAnswered200(run);
    const monitor = await bySlug('nightly-export');
    expect(monitor).to.deep.include({
      type: 'JOB_CRON',
      schedule: '*/5 * * * *',
      timezone: 'Europe/Berlin',
      grace_period_seconds: 120,
      max_duration_seconds: 600,
      failure_tolerance: 3,
      schedule_tolerance: 3,
      status: 'UP',
    });
    const pings = await history(monitor!['id']);
    expect(pings.map((p) => p['event'])).to.deep.equal(['START', 'SUCCESS']);
    expect(pings[0]!['run_id']).to.be.a('string').and.equal(pings[1]!['run_id']);
    expect(pings[1]!['duration_ms']).to.be.a('number').within(0, 5000);
    const { payload } = (await vigil.request('GET', `/v1/monitors/${String(monitor!['id'])}/pings/${String(pings[0]!['id'])}`, { key })).body.ping;
    const kept = JSON.parse(payload as string) as Record<string, unknown>;
    expect(kept, 'what the ping does not hold is kept: the trace').to.have.nested.property('contexts.trace.trace_id').that.is.a('string');
    expect(kept).to.not.have.any.keys('status', 'check_in_id', 'monitor_slug', 'duration', 'monitor_config');
  });

  it('keeps no payload for a check-in that says nothing beyond its slug, status, run and duration', async () => {
    const monitor = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: project.id, name: 'Bare', slug: 'bare-check-in', type: 'JOB_BASIC', schedule: 'x' } })).body.monitor;
    const body = `{}\n{"type":"check_in"}\n${JSON.stringify({ check_in_id: 'b1', monitor_slug: 'bare-check-in', status: 'ok', duration: 2 })}`;
    expect((await vigil.request('POST', `/api/1/envelope/?sentry_key=${project.ping_key}`, { rawBody: body })).status).to.equal(200);
    const [ping] = await history(monitor.id);
    expect(ping).to.include({ event: 'SUCCESS', run_id: 'b1', duration_ms: 2000, payload_bytes: null, payload_truncated: false });
  });

  it('withMonitor with an interval config creates a JOB_HEARTBEAT, and a later config updates it', async () => {
    const run = await runSentryJob({ dsn, steps: [{ op: 'withMonitor', slug: 'queue-drain', config: { schedule: { type: 'interval', value: 2, unit: 'hour' }, checkinMargin: 5 } }] });
    allAnswered200(run);
    expect(await bySlug('queue-drain')).to.deep.include({ type: 'JOB_HEARTBEAT', schedule: '2h', grace_period_seconds: 300 });
    allAnswered200(await runSentryJob({ dsn, steps: [{ op: 'withMonitor', slug: 'queue-drain', config: { schedule: { type: 'interval', value: 30, unit: 'minute' }, checkinMargin: 1 } }] }));
    const updated = await bySlug('queue-drain');
    expect(updated).to.deep.include({ type: 'JOB_HEARTBEAT', schedule: '30m', grace_period_seconds: 60 });
    expect((await history(updated!['id'])).map((p) => p['event'])).to.deep.equal(['START', 'SUCCESS', 'START', 'SUCCESS']);
  });

  it('an error thrown inside withMonitor is a FAILURE of that run', async () => {
    const config = { schedule: { type: 'crontab' as const, value: '0 3 * * *' }, failureIssueThreshold: 1 };
    const run = await runSentryJob({ dsn, steps: [{ op: 'withMonitor', slug: 'flaky-import', config, throws: true }] });
    expect(run.errors).to.deep.equal(['Error: the job failed']);
    allAnswered200(run);
    const monitor = await bySlug('flaky-import');
    const pings = await history(monitor!['id']);
    expect(pings.map((p) => p['event'])).to.deep.equal(['START', 'FAILURE']);
    expect(pings[1]!['run_id']).to.equal(pings[0]!['run_id']);
    expect(monitor).to.include({ status: 'DOWN' });
  });

  it('captureCheckIn in_progress/ok pairs share their check_in_id as the run id and carry the duration', async () => {
    const config = { schedule: { type: 'interval' as const, value: 1, unit: 'day' as const } };
    const run = await runSentryJob({ dsn, steps: [{ op: 'checkInPair', slug: 'pair-job', config, duration: 12.5 }, { op: 'checkInPair', slug: 'pair-job', duration: 3 }] });
    allAnswered200(run);
    const pings = await history((await bySlug('pair-job'))!['id']);
    expect(pings.map((p) => [p['event'], p['run_id']])).to.deep.equal([
      ['START', run.checkInIds[0]],
      ['SUCCESS', run.checkInIds[0]],
      ['START', run.checkInIds[1]],
      ['SUCCESS', run.checkInIds[1]],
    ]);
    expect([pings[1]!['duration_ms'], pings[3]!['duration_ms']]).to.deep.equal([12_500, 3000]);
  });

  it('takes a gzip body (the SDK compresses past 32 KB), keeping the rest of the check-in (its release) as the payload, cut and flagged', async () => {
    const run = await runSentryJob({ dsn, release: 'r'.repeat(40_000), steps: [{ op: 'checkInPair', slug: 'big-release', config: { schedule: { type: 'crontab', value: '0 * * * *' } } }] });
    allAnswered200(run);
    const [start] = await history((await bySlug('big-release'))!['id']);
    expect(start).to.include({ event: 'START', payload_truncated: true });
    expect(start!['payload_bytes']).to.be.greaterThan(40_000);
  });

  it('accepts an error event envelope and ignores it, storing nothing', async () => {
    const before = await vigil.vigil.stores.events.headPosition();
    const run = await runSentryJob({ dsn, steps: [{ op: 'exception', message: 'unrelated error' }] });
    allAnswered200(run);
    expect(await vigil.vigil.stores.events.headPosition()).to.equal(before);
  });

  it('refuses an unknown key with a 403 and creates nothing', async () => {
    const before = await vigil.vigil.stores.events.headPosition();
    const wrong = `http://${randomBase62(22)}@127.0.0.1:${new URL(vigil.url).port}/1`;
    const run = await runSentryJob({ dsn: wrong, steps: [{ op: 'withMonitor', slug: 'never-made', config: { schedule: { type: 'crontab', value: '* * * * *' } } }] });
    expect(run.sent.map((s) => s.statusCode)).to.deep.equal([403, 403]);
    expect(await vigil.vigil.stores.events.headPosition()).to.equal(before);
    expect(await bySlug('never-made')).to.equal(undefined);
  });

  describe('envelopes sent by hand', () => {
    const envelope = (items: object[]) => [JSON.stringify({ sent_at: '2026-11-21T12:00:00Z' }), ...items.flatMap((item) => [JSON.stringify({ type: 'check_in' }), JSON.stringify(item)])].join('\n');
    const post = (body: string | Uint8Array, headers: Record<string, string> = {}, query = `?sentry_key=${project.ping_key}`) =>
      vigil.request('POST', `/api/1/envelope/${query}`, { rawBody: body, headers: { 'Content-Type': 'application/x-sentry-envelope', ...headers } });

    it('reads the key from X-Sentry-Auth, and items with a length header', async () => {
      const item = JSON.stringify({ check_in_id: 'abc', monitor_slug: 'by-header', status: 'ok', monitor_config: { schedule: { type: 'crontab', value: '0 0 * * *' } } });
      const body = `{}\n${JSON.stringify({ type: 'check_in', length: Buffer.byteLength(item) })}\n${item}\n${JSON.stringify({ type: 'client_report' })}\n{"discarded_events":[]}\n`;
      const answer = await post(body, { 'X-Sentry-Auth': `Sentry sentry_version=7, sentry_client=hand/1.0, sentry_key=${project.ping_key}` }, '');
      expect(answer.status, answer.text).to.equal(200);
      expect(answer.body).to.deep.equal({});
      expect((await history((await bySlug('by-header'))!['id'])).map((p) => p['event'])).to.deep.equal(['SUCCESS']);
    });

    it("takes a job's ok that overtakes the in_progress creating its monitor: the ok waits for the envelope under way", async () => {
      const url = new URL(`/api/1/envelope/?sentry_key=${project.ping_key}`, vigil.url);
      const creating = envelope([{ check_in_id: 'late-start', monitor_slug: 'overtaken', status: 'in_progress', monitor_config: { schedule: { type: 'crontab', value: '0 4 * * *' } } }]);
      // The in_progress is sent first but its body arrives last, as a large body on a slow connection does.
      const slow = new Promise<number>((resolve, reject) => {
        const request = httpRequest(url, { method: 'POST', headers: { 'Content-Type': 'application/x-sentry-envelope', 'Content-Length': Buffer.byteLength(creating) } }, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        request.on('error', reject);
        request.write(creating.slice(0, 10));
        setTimeout(() => request.end(creating.slice(10)), 300);
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const ok = await post(envelope([{ check_in_id: 'late-start', monitor_slug: 'overtaken', status: 'ok', duration: 1 }]));
      expect(ok.status, ok.text).to.equal(200);
      expect(await slow).to.equal(200);
      expect((await history((await bySlug('overtaken'))!['id'])).map((p) => [p['event'], p['run_id']])).to.deep.equal([['START', 'late-start'], ['SUCCESS', 'late-start']]);
    });

    it('stops taking the old key at once when the project rotates it, and takes the new one', async () => {
      const other = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Rotating' } })).body.project as { id: string; ping_key: string };
      const monitor = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: other.id, name: 'Rotated job', slug: 'rotated-job', type: 'JOB_BASIC', schedule: 'nightly' } })).body.monitor;
      const checkIn = envelope([{ check_in_id: 'r1', monitor_slug: 'rotated-job', status: 'ok' }]);
      expect((await post(checkIn, {}, `?sentry_key=${other.ping_key}`)).status).to.equal(200);
      const rotated = (await vigil.request('POST', `/v1/projects/${other.id}/ping-key/rotate`, { key })).body.project.ping_key as string;
      expect((await post(checkIn, {}, `?sentry_key=${other.ping_key}`)).status).to.equal(403);
      expect((await post(checkIn, {}, `?sentry_key=${rotated}`)).status).to.equal(200);
      expect((await history(monitor.id)).map((p) => p['event'])).to.deep.equal(['SUCCESS', 'SUCCESS']);
    });

    it('follows a slug to the monitor that has it now: a check-in right after a rename is not recorded on the renamed monitor', async () => {
      const renamed = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: project.id, name: 'Reports', slug: 'reports', type: 'JOB_BASIC', schedule: 'nightly' } })).body.monitor;
      const checkIn = envelope([{ check_in_id: 'n1', monitor_slug: 'reports', status: 'ok' }]);
      expect((await post(checkIn)).status, 'the door now knows the slug').to.equal(200);
      expect((await vigil.request('PATCH', `/v1/monitors/${renamed.id}`, { key, body: { slug: 'reports-legacy' } })).status).to.equal(200);
      const refused = await post(checkIn);
      expect(refused.status, refused.text).to.equal(404);
      expect(refused.body.detail).to.match(/no monitor has the slug reports/);
      const successor = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: project.id, name: 'Reports v2', slug: 'reports', type: 'JOB_BASIC', schedule: 'nightly' } })).body.monitor;
      expect((await post(checkIn)).status).to.equal(200);
      expect((await history(renamed.id)).map((p) => p['event'])).to.deep.equal(['SUCCESS']);
      expect((await history(successor.id)).map((p) => p['event'])).to.deep.equal(['SUCCESS']);
    });

    it('answers {"id": …} for an envelope with an event id, as relay does', async () => {
      const answer = await post(`${JSON.stringify({ event_id: '9ec79c33ec9942ab8353589fcb2e04dc' })}\n{"type":"event"}\n{"message":"x"}\n`);
      expect(answer.body).to.deep.equal({ id: '9ec79c33ec9942ab8353589fcb2e04dc' });
    });

    it('refuses a gzip bomb with a 413 without inflating it into memory, storing nothing', async () => {
      const before = await vigil.vigil.stores.events.headPosition();
      const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
      expect(bomb.length).to.be.lessThan(200_000);
      const answer = await post(bomb, { 'Content-Encoding': 'gzip' });
      expect(answer.status).to.equal(413);
      expect(answer.body.detail).to.match(/decompressed/);
      expect(await vigil.vigil.stores.events.headPosition()).to.equal(before);
    });

    it('refuses what it cannot honour with a 4xx naming it, storing nothing of the envelope', async () => {
      const before = await vigil.vigil.stores.events.headPosition();
      const cases: [object[], number, RegExp][] = [
        [[{ monitor_slug: 'x', status: 'timeout' }], 400, /status must be in_progress, ok or error/],
        [[{ status: 'ok' }], 400, /monitor_slug is required/],
        [[{ monitor_slug: 'no-config', status: 'ok' }], 404, /no monitor_config/],
        [[{ monitor_slug: 'recovers', status: 'ok', monitor_config: { schedule: { type: 'crontab', value: '0 * * * *' }, recovery_threshold: 3 } }], 400, /recovery_threshold 3 is not supported/],
        [[{ monitor_slug: 'monthly', status: 'ok', monitor_config: { schedule: { type: 'interval', value: 1, unit: 'month' } } }], 400, /month/],
        [[{ monitor_slug: 'bad-cron', status: 'ok', monitor_config: { schedule: { type: 'crontab', value: '61 * * * *' } } }], 400, /minute/],
        // A good check-in beside a bad one: neither is recorded.
        [[{ monitor_slug: 'nightly-export', status: 'ok' }, { monitor_slug: 'x', status: 'nope' }], 400, /check_in item 2/],
        // An interval config for a crontab monitor: its type cannot change.
        [[{ monitor_slug: 'nightly-export', status: 'ok', monitor_config: { schedule: { type: 'interval', value: 1, unit: 'hour' } } }], 400, /type cannot change/],
      ];
      for (const [items, status, error] of cases) {
        const answer = await post(envelope(items));
        expect([answer.status, answer.body.detail]).to.satisfy(([s, d]: [number, string]) => s === status && error.test(d), `${JSON.stringify(items)} → ${answer.status} ${answer.text}`);
      }
      expect((await post(envelope([{ monitor_slug: 'x', status: 'ok' }]), {}, '')).status).to.equal(401);
      expect(await vigil.vigil.stores.events.headPosition()).to.equal(before);
    });
  });
});
