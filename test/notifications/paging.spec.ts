import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { openSqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { type Handler, type SeenRequest, type Target, reply, startTarget } from '../support/http-targets.js';
import { startSmtpSink } from '../support/smtp-sink.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../support/test-vigil.js';

const MINUTE = 60_000;

describe('Paging', function () {
  this.timeout(60_000);
  let vigil: TestVigil;
  let key: string;
  let projectId: string;
  let sink: Target;
  let handler: Handler;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  const seen = (path: string) => sink.seen.filter((r) => r.url.startsWith(path));
  const json = (request: SeenRequest | undefined) => JSON.parse(request?.body ?? 'null');

  beforeEach(async () => {
    handler = reply(200, 'ok');
    sink = await startTarget((request, response) => handler(request, response));
    smtp = await startSmtpSink();
    // Receivers check webhook timestamps against real time, so this clock starts at real time.
    vigil = await TestVigil.start({
      clock: new TestClock(Date.now()),
      env: { VIGIL_SMTP_HOST: '127.0.0.1', VIGIL_SMTP_PORT: String(smtp.port), VIGIL_SMTP_FROM: 'Vigil <vigil@example.com>', VIGIL_NOTIFY_RETRY_BASE_MS: '1000', VIGIL_REPAGE_INTERVAL_MINUTES: '30' },
    });
    key = await vigil.accountKey(await vigil.user('pager@example.com'), ALL_SCOPES);
    projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Paged' } })).body.project.id;
  });
  afterEach(async () => {
    await vigil.stop();
    await sink.close();
    await smtp.close();
  });

  async function channel(type: string, config: Record<string, unknown>, name = type) {
    const created = await vigil.request('POST', '/v1/notification-channels', { key, body: { project_id: projectId, name, type, config } });
    expect(created.status, created.text).to.equal(201);
    return created.body as { channel: { id: string }; signing_secret?: string };
  }
  async function monitor(body: Record<string, unknown>) {
    const created = await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Nightly backup', type: 'JOB_BASIC', schedule: 'x', ...body } });
    expect(created.status, created.text).to.equal(201);
    return created.body.monitor as { id: string };
  }
  const ping = (id: string, suffix = '') => vigil.request('GET', `/v1/ping/${id}${suffix}`);

  it('sends each channel type exactly the request its service expects, then the recovery', async () => {
    const webhook = await channel('WEBHOOK', { url: `${sink.url}/webhook`, headers: { 'X-Team': 'ops' } });
    const ids = [
      webhook.channel.id,
      (await channel('SLACK', { webhook_url: `${sink.url}/slack/T0/B0/XXXX` })).channel.id,
      (await channel('DISCORD', { webhook_url: `${sink.url}/discord/api/webhooks/1/abc` })).channel.id,
      (await channel('MSTEAMS', { webhook_url: `${sink.url}/teams/workflow` })).channel.id,
      (await channel('TELEGRAM', { bot_token: '123456:TELEGRAM-TOKEN', chat_id: '-1001', api_base: `${sink.url}/telegram` })).channel.id,
      (await channel('PAGERDUTY', { routing_key: 'PD-ROUTING-KEY', api_base: `${sink.url}/pagerduty` })).channel.id,
      (await channel('OPSGENIE', { api_key: 'OG-API-KEY', api_base: `${sink.url}/opsgenie` })).channel.id,
      (await channel('NTFY', { topic: 'vigil-alerts', server: `${sink.url}/ntfy`, token: 'tk_NTFYTOKEN' })).channel.id,
      (await channel('EMAIL', { to: ['oncall@example.com'] })).channel.id,
    ];
    const m = await monitor({ notification_channel_ids: ids });
    await ping(m.id, '/2');
    await vigil.notify();
    const [incident] = (await vigil.request('GET', `/v1/monitors/${m.id}/incidents`, { key })).body.data;

    const hook = seen('/webhook')[0]!;
    expect(new Webhook(webhook.signing_secret!).verify(hook.body, hook.headers as Record<string, string>)).to.deep.include({ event: 'incident.opened', project_id: projectId });
    expect(hook.headers).to.include({ 'x-team': 'ops', 'content-type': 'application/json' });
    expect(json(hook).incident).to.include({ id: incident.id, event: 'FAILED', cause: '1 failure; last exit code 2' });
    expect(json(hook).monitor).to.deep.include({ id: m.id, name: 'Nightly backup', status: 'DOWN' });
    expect(json(hook).occurred_at).to.match(/^\d{4}-\d\d-\d\dT/);
    expect(() => new Webhook('whsec_' + Buffer.from('wrong secret value!!').toString('base64')).verify(hook.body, hook.headers as Record<string, string>)).to.throw();

    expect(json(seen('/slack')[0])).to.deep.equal({ text: '🔴 FAILED: Nightly backup — 1 failure; last exit code 2' });
    expect(json(seen('/discord')[0])).to.deep.equal({ content: '🔴 FAILED: Nightly backup — 1 failure; last exit code 2', allowed_mentions: { parse: [] } });
    const teams = json(seen('/teams')[0]);
    expect(teams.type).to.equal('message');
    expect(teams.attachments[0].contentType).to.equal('application/vnd.microsoft.card.adaptive');
    expect(teams.attachments[0].content.body[0].text).to.equal('🔴 FAILED: Nightly backup');
    const telegram = seen('/telegram')[0]!;
    expect(telegram.url).to.equal('/telegram/bot123456:TELEGRAM-TOKEN/sendMessage');
    expect(json(telegram)).to.deep.include({ chat_id: '-1001', disable_web_page_preview: true });
    const pd = json(seen('/pagerduty/v2/enqueue')[0]);
    expect(pd).to.deep.include({ routing_key: 'PD-ROUTING-KEY', event_action: 'trigger', dedup_key: incident.id });
    expect(pd.payload).to.deep.include({ severity: 'critical', source: 'nightly-backup' });
    const og = seen('/opsgenie/v2/alerts')[0]!;
    expect(og.headers['authorization']).to.equal('GenieKey OG-API-KEY');
    expect(json(og)).to.deep.include({ alias: incident.id, priority: 'P1', source: 'Vigil', message: '🔴 FAILED: Nightly backup' });
    const ntfy = seen('/ntfy/vigil-alerts')[0]!;
    expect(ntfy.headers).to.include({ title: '[Vigil] FAILED: Nightly backup', priority: '4', tags: 'rotating_light', authorization: 'Bearer tk_NTFYTOKEN' });
    expect(ntfy.body).to.equal('1 failure; last exit code 2');
    expect(smtp.mails).to.have.length(1);
    expect(smtp.mails[0]!.to).to.deep.equal(['oncall@example.com']);
    expect(smtp.mails[0]!.data).to.match(/^Subject: \[Vigil\] FAILED: Nightly backup\r?$/m);
    expect(sink.seen).to.have.length(8);

    await ping(m.id);
    await vigil.notify();
    expect(json(seen('/pagerduty/v2/enqueue')[1])).to.deep.equal({ routing_key: 'PD-ROUTING-KEY', event_action: 'resolve', dedup_key: incident.id });
    expect(seen('/opsgenie/v2/alerts')[1]!.url).to.equal(`/opsgenie/v2/alerts/${incident.id}/close?identifierType=alias`);
    expect(json(seen('/webhook')[1]).event).to.equal('incident.resolved');
    expect(json(seen('/slack')[1]).text).to.match(/^✅ Resolved FAILED: Nightly backup/);
    const channels = (await vigil.request('GET', `/v1/notification-channels?project_id=${projectId}`, { key })).body;
    for (const c of channels.filter((c: { type: string }) => c.type !== 'EMAIL' || smtp.mails.length > 0)) expect(c.last_delivery_at, c.type).to.be.a('string');
  });

  it('fires every channel of a group in parallel, and a channel reached twice only once', async () => {
    const arrived: (() => void)[] = [];
    // Each receiver answers only once all three have arrived: a sequential sender would stall and fail.
    handler = (request, response) => {
      arrived.push(() => reply(200)(request, response));
      if (arrived.length === 3) arrived.forEach((release) => release());
      // The fallback for a sequential sender; once all three were released there is nothing to answer.
      else setTimeout(() => response.headersSent || reply(503)(request, response), 3000).unref();
    };
    const a = (await channel('WEBHOOK', { url: `${sink.url}/a` }, 'a')).channel.id;
    const b = (await channel('WEBHOOK', { url: `${sink.url}/b` }, 'b')).channel.id;
    const c = (await channel('WEBHOOK', { url: `${sink.url}/c` }, 'c')).channel.id;
    const group = (await vigil.request('POST', '/v1/notification-groups', { key, body: { project_id: projectId, name: 'All' } })).body.group.id;
    for (const id of [a, b, c]) await vigil.request('POST', `/v1/notification-groups/${group}/channels`, { key, body: { channel_id: id } });
    const m = await monitor({ notification_group_ids: [group], notification_channel_ids: [a] });
    await ping(m.id, '/fail');
    await vigil.notify();
    expect(sink.seen.map((r) => r.url).sort()).to.deep.equal(['/a', '/b', '/c']);
    const channels = (await vigil.request('GET', `/v1/notification-channels?project_id=${projectId}`, { key })).body;
    expect(channels.map((ch: { last_error: string | null }) => ch.last_error)).to.deep.equal([null, null, null]);
  });

  it('pages again while the incident stays OPEN, and stops once it is acknowledged', async () => {
    const hook = (await channel('WEBHOOK', { url: `${sink.url}/hook` })).channel.id;
    const m = await monitor({ notification_channel_ids: [hook] });
    await ping(m.id, '/fail');
    await vigil.notify();
    vigil.clock.advance(29 * MINUTE);
    await vigil.tick();
    await vigil.notify();
    expect(sink.seen).to.have.length(1);
    vigil.clock.advance(2 * MINUTE);
    await vigil.tick();
    await vigil.notify();
    expect(sink.seen.map((r) => json(r).event)).to.deep.equal(['incident.opened', 'incident.repage']);
    const [incident] = (await vigil.request('GET', `/v1/monitors/${m.id}/incidents`, { key })).body.data;
    await vigil.request('POST', `/v1/incidents/${incident.id}/acknowledge`, { key });
    await vigil.notify();
    vigil.clock.advance(120 * MINUTE);
    await vigil.tick();
    await vigil.notify();
    expect(sink.seen.map((r) => json(r).event)).to.deep.equal(['incident.opened', 'incident.repage', 'incident.acknowledged']);
  });

  it('pauses problem pages for an hour at alert_surge_threshold, and resets on recovery', async () => {
    const hook = (await channel('WEBHOOK', { url: `${sink.url}/hook` })).channel.id;
    const m = await monitor({ notification_channel_ids: [hook], alert_surge_threshold: 2 });
    await ping(m.id, '/fail');
    await vigil.notify();
    vigil.clock.advance(31 * MINUTE);
    await vigil.tick();
    await vigil.notify();
    const surged = (await vigil.request('GET', `/v1/monitors/${m.id}`, { key })).body.monitor;
    expect(surged.consecutive_alerts).to.equal(2);
    expect(surged.alerts_paused_until).to.equal(new Date(vigil.clock.now().getTime() + 60 * MINUTE).toISOString());
    vigil.clock.advance(31 * MINUTE);
    await vigil.tick();
    await vigil.notify();
    expect(sink.seen.map((r) => json(r).event)).to.deep.equal(['incident.opened', 'incident.repage']);
    await ping(m.id);
    await vigil.notify();
    expect(sink.seen.map((r) => json(r).event)).to.deep.equal(['incident.opened', 'incident.repage', 'incident.resolved']);
    expect((await vigil.request('GET', `/v1/monitors/${m.id}`, { key })).body.monitor).to.include({ consecutive_alerts: 0, alerts_paused_until: null });
  });

  it('records incidents without paging anyone when alert_enabled is false', async () => {
    const hook = (await channel('WEBHOOK', { url: `${sink.url}/hook` })).channel.id;
    const m = await monitor({ notification_channel_ids: [hook], alert_enabled: false });
    await ping(m.id, '/fail');
    await vigil.notify();
    expect(sink.seen).to.have.length(0);
    expect((await vigil.request('GET', `/v1/monitors/${m.id}/incidents`, { key })).body.data).to.have.length(1);
  });

  it('retries a failing receiver with backoff, shows last_error, then delivers', async () => {
    handler = reply(500);
    const hook = (await channel('WEBHOOK', { url: `${sink.url}/hook` })).channel.id;
    const m = await monitor({ notification_channel_ids: [hook] });
    await ping(m.id, '/fail');
    await vigil.notify();
    const failing = (await vigil.request('GET', `/v1/notification-channels/${hook}`, { key })).body.channel;
    expect(failing.last_error).to.equal(`${new URL(sink.url).host} answered HTTP 500`);
    expect(failing.last_delivery_at).to.equal(null);
    await vigil.notify();
    expect(sink.seen).to.have.length(1);
    vigil.clock.advance(1000);
    await vigil.notify();
    expect(sink.seen).to.have.length(2);
    handler = reply(204);
    vigil.clock.advance(5000);
    await vigil.notify();
    expect(sink.seen).to.have.length(3);
    expect(new Set(sink.seen.map((r) => r.headers['webhook-id'])).size).to.equal(1);
    expect((await vigil.request('GET', `/v1/notification-channels/${hook}`, { key })).body.channel.last_delivery_at).to.be.a('string');
    vigil.clock.advance(60 * MINUTE);
    await vigil.notify();
    expect(sink.seen).to.have.length(3);
  });

  it('survives a restart mid-delivery: nothing lost, nothing delivered twice', async () => {
    const hook = (await channel('WEBHOOK', { url: `${sink.url}/hook` })).channel.id;
    const m = await monitor({ notification_channel_ids: [hook] });
    await ping(m.id, '/fail');
    await vigil.settle();
    await vigil.stopKeepingData();
    vigil = await TestVigil.reopen(vigil.dataDir, vigil.env, vigil.clock);
    await vigil.notify();
    expect(sink.seen).to.have.length(1);
    await vigil.stopKeepingData();
    vigil = await TestVigil.reopen(vigil.dataDir, vigil.env, vigil.clock);
    await vigil.notify();
    expect(sink.seen).to.have.length(1);
  });

  it('sends a test message on request and reports whether it arrived', async () => {
    const hook = (await channel('SLACK', { webhook_url: `${sink.url}/slack/test` })).channel.id;
    const ok = await vigil.request('POST', `/v1/notification-channels/${hook}/test`, { key });
    expect(ok.body).to.include({ ok: true, delivered: true, error: null });
    expect(json(seen('/slack/test')[0]).text).to.match(/^🧪 Test message from Vigil for channel "SLACK"/);
    handler = reply(403);
    const refused = await vigil.request('POST', `/v1/notification-channels/${hook}/test`, { key });
    expect(refused.body).to.include({ ok: true, delivered: false, error: `${new URL(sink.url).host} answered HTTP 403` });
  });

  it('keeps signing a webhook with its secret after its config is updated without one', async () => {
    const hook = await channel('WEBHOOK', { url: `${sink.url}/old` });
    const patched = await vigil.request('PATCH', `/v1/notification-channels/${hook.channel.id}`, { key, body: { config: { url: `${sink.url}/new` } } });
    expect(patched.body.channel.config_fields_set).to.deep.equal(['secret', 'url']);
    const tested = await vigil.request('POST', `/v1/notification-channels/${hook.channel.id}/test`, { key });
    expect(tested.body).to.include({ delivered: true, error: null });
    const [received] = seen('/new');
    expect(new Webhook(hook.signing_secret!).verify(received!.body, received!.headers as Record<string, string>)).to.be.an('object');
  });

  it('keeps every secret out of the events and read models in the SQLite file', async () => {
    const secrets = ['SLACK-SECRET-PATH-9', '654321:TG-SECRET', 'PD-SECRET-KEY', 'OG-SECRET-KEY', 'tk_NTFY_SECRET', 'topic-secret-9'];
    await channel('SLACK', { webhook_url: `${sink.url}/slack/${secrets[0]}` });
    await channel('TELEGRAM', { bot_token: secrets[1]!, chat_id: '1', api_base: `${sink.url}/telegram` });
    await channel('PAGERDUTY', { routing_key: secrets[2]!, api_base: `${sink.url}/pd` });
    await channel('OPSGENIE', { api_key: secrets[3]!, api_base: `${sink.url}/og` });
    const ntfy = await channel('NTFY', { topic: secrets[5]!, token: secrets[4]!, server: `${sink.url}/ntfy` });
    const hook = await channel('WEBHOOK', { url: `${sink.url}/hook` });
    secrets.push(hook.signing_secret!);
    const m = await monitor({ notification_channel_ids: [ntfy.channel.id, hook.channel.id] });
    await ping(m.id, '/fail');
    await vigil.notify();
    await vigil.settle();
    const db = openSqliteDatabase(`${vigil.dataDir}/vigil.db`);
    const tables = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((t) => t.name);
    for (const table of tables) {
      const rows = JSON.stringify(db.prepare(`SELECT * FROM ${table}`).all());
      for (const secret of secrets) expect(rows.includes(secret), `${secret} found in ${table}`).to.equal(false);
    }
    db.close();
    for (const path of [`/v1/notification-channels?project_id=${projectId}`, `/v1/notification-channels/${ntfy.channel.id}`]) {
      const raw = (await vigil.request('GET', path, { key })).text;
      for (const secret of secrets) expect(raw.includes(secret)).to.equal(false);
    }
  });
});
