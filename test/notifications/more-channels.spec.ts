import { expect } from 'chai';
import { type Handler, type SeenRequest, type Target, reply, startTarget } from '../support/http-targets.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../support/test-vigil.js';

describe('Mattermost, Matrix, Gotify, Pushover, Google Chat and templated webhook channels', function () {
  this.timeout(60_000);
  let vigil: TestVigil;
  let key: string;
  let projectId: string;
  let sink: Target;
  let handler: Handler;
  const seen = (path: string) => sink.seen.filter((r) => r.url.startsWith(path));
  const json = (request: SeenRequest | undefined) => JSON.parse(request?.body ?? 'null');

  beforeEach(async () => {
    handler = reply(200, '{}', { 'Content-Type': 'application/json' });
    sink = await startTarget((request, response) => handler(request, response));
    vigil = await TestVigil.start({ clock: new TestClock(Date.parse('2026-11-21T12:00:00.000Z')), env: { VIGIL_NOTIFY_RETRY_BASE_MS: '1000' } });
    key = await vigil.accountKey(await vigil.user('more-channels@example.com'), ALL_SCOPES);
    projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Channels' } })).body.project.id;
  });
  afterEach(async () => {
    await vigil.stop();
    await sink.close();
  });

  const createChannel = (type: string, config: Record<string, unknown>) =>
    vigil.request('POST', '/v1/notification-channels', { key, body: { project_id: projectId, name: type, type, config } });
  async function channel(type: string, config: Record<string, unknown>): Promise<string> {
    const created = await createChannel(type, config);
    expect(created.status, created.text).to.equal(201);
    return created.body.channel.id;
  }
  async function failingMonitor(channelIds: string[], name = 'Nightly backup') {
    const created = await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name, type: 'JOB_BASIC', schedule: 'x', notification_channel_ids: channelIds } });
    expect(created.status, created.text).to.equal(201);
    const id: string = created.body.monitor.id;
    await vigil.request('GET', `/v1/ping/${id}/2`);
    await vigil.notify();
    const [incident] = (await vigil.request('GET', `/v1/monitors/${id}/incidents`, { key })).body.data;
    return { id, incident: incident as { id: string } };
  }

  it('sends each service the request its documentation describes, then the recovery', async () => {
    const ids = [
      await channel('MATTERMOST', { webhook_url: `${sink.url}/hooks/mm-generatedkey`, username: 'vigil', icon_url: 'https://vigil.example/icon.png' }),
      await channel('MATRIX', { homeserver: `${sink.url}/matrix`, access_token: 'syt_MATRIX-TOKEN', room_id: '!room42:example.org' }),
      await channel('GOTIFY', { server: `${sink.url}/gotify`, token: 'A-GOTIFY-TOKEN' }),
      await channel('PUSHOVER', { app_token: 'PUSHOVER-APP-TOKEN', user_key: 'PUSHOVER-USER-KEY', api_base: `${sink.url}/pushover` }),
      await channel('GOOGLE_CHAT', { webhook_url: `${sink.url}/v1/spaces/AAAA/messages?key=CHAT-KEY&token=CHAT-TOKEN` }),
    ];
    const { id, incident } = await failingMonitor(ids);
    expect(sink.seen).to.have.length(5);

    const mattermost = seen('/hooks/mm-generatedkey')[0]!;
    expect(mattermost.method).to.equal('POST');
    expect(mattermost.headers['content-type']).to.equal('application/json');
    expect(json(mattermost)).to.deep.include({ text: '🔴 FAILED: Nightly backup', username: 'vigil', icon_url: 'https://vigil.example/icon.png' });
    expect(json(mattermost).attachments[0]).to.deep.include({ fallback: '🔴 FAILED: Nightly backup — 1 failure; last exit code 2', color: '#d92d20', text: '1 failure; last exit code 2' });

    const matrix = seen('/matrix')[0]!;
    expect(matrix.method).to.equal('PUT');
    expect(matrix.url).to.match(/^\/matrix\/_matrix\/client\/v3\/rooms\/!room42%3Aexample\.org\/send\/m\.room\.message\/vigil-[A-Za-z0-9._~-]+$/);
    expect(matrix.headers['authorization']).to.equal('Bearer syt_MATRIX-TOKEN');
    expect(json(matrix)).to.deep.equal({
      msgtype: 'm.text',
      body: '🔴 FAILED: Nightly backup — 1 failure; last exit code 2',
      format: 'org.matrix.custom.html',
      formatted_body: '<strong>🔴 FAILED: Nightly backup</strong><br>1 failure; last exit code 2',
    });

    const gotify = seen('/gotify')[0]!;
    expect(gotify.url).to.equal('/gotify/message');
    expect(gotify.headers['x-gotify-key']).to.equal('A-GOTIFY-TOKEN');
    expect(json(gotify)).to.deep.include({ title: '[Vigil] FAILED: Nightly backup', message: '1 failure; last exit code 2', priority: 8 });

    const pushover = seen('/pushover')[0]!;
    expect(pushover.url).to.equal('/pushover/1/messages.json');
    expect(json(pushover)).to.deep.equal({
      token: 'PUSHOVER-APP-TOKEN',
      user: 'PUSHOVER-USER-KEY',
      title: '[Vigil] FAILED: Nightly backup',
      message: '1 failure; last exit code 2',
      priority: 1,
      timestamp: Date.parse('2026-11-21T12:00:00.000Z') / 1000,
    });

    const chat = seen('/v1/spaces/AAAA/messages')[0]!;
    expect(new URL(chat.url, sink.url).searchParams.get('key')).to.equal('CHAT-KEY');
    expect(new URL(chat.url, sink.url).searchParams.get('messageReplyOption')).to.equal('REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD');
    expect(chat.headers['content-type']).to.equal('application/json; charset=UTF-8');
    expect(json(chat)).to.deep.equal({ text: '🔴 FAILED: Nightly backup — 1 failure; last exit code 2', thread: { threadKey: incident.id } });

    await vigil.request('GET', `/v1/ping/${id}`);
    await vigil.notify();
    expect(sink.seen).to.have.length(10);
    expect(json(seen('/hooks/mm-generatedkey')[1]).text).to.equal('✅ Resolved FAILED: Nightly backup');
    expect(json(seen('/hooks/mm-generatedkey')[1]).attachments[0].color).to.equal('#12b76a');
    expect(seen('/matrix')[1]!.url).to.not.equal(matrix.url);
    expect(json(seen('/gotify')[1]).priority).to.equal(4);
    expect(json(seen('/pushover')[1]).priority).to.equal(0);
    expect(json(seen('/v1/spaces/AAAA/messages')[1]).thread).to.deep.equal({ threadKey: incident.id });
    const channels = (await vigil.request('GET', `/v1/notification-channels?project_id=${projectId}`, { key })).body;
    expect(channels.map((c: { last_error: string | null }) => c.last_error)).to.deep.equal([null, null, null, null, null]);
  });

  it('retries a Matrix page with the same transaction id, so the homeserver posts it once', async () => {
    let calls = 0;
    handler = (request, response) => reply((calls += 1) === 1 ? 502 : 200, '{}')(request, response);
    await failingMonitor([await channel('MATRIX', { homeserver: sink.url, access_token: 'syt_MATRIX-TOKEN', room_id: '!room42:example.org' })]);
    vigil.clock.advance(1500);
    await vigil.notify();
    expect(sink.seen).to.have.length(2);
    expect(sink.seen[1]!.url).to.equal(sink.seen[0]!.url);
    expect(sink.seen[1]!.body).to.equal(sink.seen[0]!.body);
  });

  it('escapes HTML in Matrix’s formatted body: a monitor name is text, not markup', async () => {
    await failingMonitor([await channel('MATRIX', { homeserver: sink.url, access_token: 'syt_MATRIX-TOKEN', room_id: '!room42:example.org' })], '<img src=x> & co');
    expect(json(sink.seen[0]).formatted_body).to.equal('<strong>🔴 FAILED: &#60;img src=x&#62; &#38; co</strong><br>1 failure; last exit code 2');
  });

  describe('TEMPLATED_WEBHOOK', () => {
    it('sends its method, headers and body template with the incident’s fields, JSON-escaped in a JSON body', async () => {
      const hook = await channel('TEMPLATED_WEBHOOK', {
        url: `${sink.url}/api/alert/{{monitor.slug}}?state={{reason}}`,
        method: 'PUT',
        headers: { Authorization: 'Token SERVICE-TOKEN' },
        body_template: '{"summary": "{{title}}", "monitor": "{{monitor.name}}", "incident": "{{incident.id}}", "cause": "{{incident.cause}}", "at": "{{occurred_at}}"}',
      });
      const { incident } = await failingMonitor([hook], 'Backup "prod" \\ db');
      const [request] = sink.seen;
      expect(request!.method).to.equal('PUT');
      expect(request!.url).to.equal('/api/alert/backup-prod-db?state=opened');
      expect(request!.headers).to.include({ authorization: 'Token SERVICE-TOKEN', 'content-type': 'application/json' });
      expect(json(request)).to.deep.equal({
        summary: '🔴 FAILED: Backup "prod" \\ db',
        monitor: 'Backup "prod" \\ db',
        incident: incident.id,
        cause: '1 failure; last exit code 2',
        at: '2026-11-21T12:00:00.000Z',
      });
    });

    it('form-encodes values in a form body and URL-encodes them in the URL of a GET', async () => {
      const form = await channel('TEMPLATED_WEBHOOK', {
        url: `${sink.url}/form`,
        content_type: 'application/x-www-form-urlencoded',
        body_template: 'monitor={{monitor.name}}&event={{event}}',
      });
      const get = await channel('TEMPLATED_WEBHOOK', { url: `${sink.url}/get?msg={{text}}`, method: 'GET' });
      await failingMonitor([form, get], 'a&b=c d');
      expect(Object.fromEntries(new URLSearchParams(seen('/form')[0]!.body))).to.deep.equal({ monitor: 'a&b=c d', event: 'incident.opened' });
      const sent = seen('/get')[0]!;
      expect(sent.method).to.equal('GET');
      expect(sent.body).to.equal('');
      expect(new URL(sent.url, sink.url).searchParams.get('msg')).to.equal('🔴 FAILED: a&b=c d — 1 failure; last exit code 2');
    });

    it('sends the webhook payload when it has no body template', async () => {
      const { incident } = await failingMonitor([await channel('TEMPLATED_WEBHOOK', { url: `${sink.url}/plain` })]);
      expect(json(sink.seen[0])).to.deep.include({ event: 'incident.opened', project_id: projectId });
      expect(json(sink.seen[0]).incident.id).to.equal(incident.id);
    });

    it('refuses a template that cannot work when it is written, naming the field', async () => {
      const refused = async (config: Record<string, unknown>) => {
        const answer = await createChannel('TEMPLATED_WEBHOOK', config);
        expect(answer.status, answer.text).to.equal(400);
        return answer.body.error as string;
      };
      expect(await refused({ url: `${sink.url}/x`, body_template: '{"a": "{{title}"}' })).to.match(/^config\.body_template is not a valid template: /);
      expect(await refused({ url: `${sink.url}/x`, body_template: '{"a": {{title}}}' })).to.match(/^config\.body_template must render to JSON for application\/json/);
      expect(await refused({ url: `${sink.url}/x`, method: 'GET', body_template: 'x' })).to.match(/^config\.body_template is not sent with GET/);
      expect(await refused({ url: `${sink.url}/x`, body_template: '{{> partial}}' })).to.equal('config.body_template is not a valid template: partials ({{> name}}) are not supported');
      expect(await refused({ url: `${sink.url}/x`, method: 'DELETE' })).to.equal('config.method must be one of POST, PUT, PATCH, GET');
      expect(await refused({ url: `${sink.url}/x`, content_type: 'json' })).to.equal('config.content_type must be a media type such as application/json');
      expect(await createChannel('TEMPLATED_WEBHOOK', { url: `${sink.url}/x`, content_type: 'text/plain', body_template: '{{title}} is {{reason}' + '}' })).to.have.property('status', 201);
    });
  });

  it('checks each new config against its type, naming the field, and never shows a token again', async () => {
    expect((await createChannel('MATRIX', { homeserver: sink.url, access_token: 'syt_MATRIX-TOKEN', room_id: '#alias:example.org' })).body.error).to.match(/^config\.room_id must be a Matrix room id/);
    expect((await createChannel('GOTIFY', { server: sink.url, token: 'A-GOTIFY-TOKEN', priority: 11 })).body.error).to.equal('config.priority must be an integer from 0 to 10');
    expect((await createChannel('PUSHOVER', { app_token: 'PUSHOVER-APP-TOKEN' })).body.error).to.equal('config.user_key is required');
    expect((await createChannel('GOOGLE_CHAT', { webhook_url: 'chat' })).body.error).to.equal('config.webhook_url must be an http or https URL');
    const created = await createChannel('PUSHOVER', { app_token: 'PUSHOVER-APP-TOKEN', user_key: 'PUSHOVER-USER-KEY', device: 'phone' });
    expect(created.text).to.not.match(/PUSHOVER-(APP|USER)/);
    const read = await vigil.request('GET', `/v1/notification-channels/${created.body.channel.id}`, { key });
    expect(read.text).to.not.match(/PUSHOVER-(APP|USER)/);
    expect(read.body.channel.config_fields_set).to.deep.equal(['app_token', 'device', 'user_key']);
  });

  it('publishes each new config in the OpenAPI document’s channel configs', async () => {
    const configs = (await vigil.request('GET', '/openapi.json')).body.components.schemas.ChannelConfigs.anyOf as { title: string; required: string[]; properties: Record<string, { enum?: string[] }> }[];
    const of = (type: string) => configs.find((c) => c.title === type)!;
    expect(of('MATTERMOST').required).to.deep.equal(['webhook_url']);
    expect(of('MATRIX').required).to.deep.equal(['homeserver', 'access_token', 'room_id']);
    expect(of('GOTIFY').required).to.deep.equal(['server', 'token']);
    expect(of('PUSHOVER').required).to.deep.equal(['app_token', 'user_key']);
    expect(of('GOOGLE_CHAT').required).to.deep.equal(['webhook_url']);
    expect(of('TEMPLATED_WEBHOOK').required).to.deep.equal(['url']);
    expect(of('TEMPLATED_WEBHOOK').properties['method']!.enum).to.deep.equal(['POST', 'PUT', 'PATCH', 'GET']);
  });
});
