import { expect } from 'chai';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

const CHANNEL_ITEM_KEYS = ['id', 'project_id', 'name', 'type', 'enabled', 'is_default', 'quiet_hours', 'owner_user_id', 'last_delivery_at', 'last_error', 'owner', 'created_at', 'updated_at'];

describe('Notification channels and groups API', () => {
  let vigil: TestVigil;
  let key: string;
  let projectId: string;
  let ownerId: string;
  before(async () => {
    vigil = await TestVigil.start();
    ownerId = await vigil.user('notify-owner@example.com');
    key = await vigil.accountKey(ownerId, ALL_SCOPES);
    projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Paging' } })).body.project.id;
  });
  after(() => vigil.stop());

  const createChannel = (body: Record<string, unknown>, as = key) => vigil.request('POST', '/v1/notification-channels', { key: as, body: { project_id: projectId, ...body } });

  it('lists the channel types with their config schema', async () => {
    const types = await vigil.request('GET', '/v1/notification-channels/types', { key });
    expect(types.body.types.map((t: { type: string }) => t.type)).to.deep.equal([
      'WEBHOOK', 'SLACK', 'DISCORD', 'MSTEAMS', 'TELEGRAM', 'PAGERDUTY', 'OPSGENIE', 'NTFY', 'EMAIL',
      'MATTERMOST', 'MATRIX', 'GOTIFY', 'PUSHOVER', 'GOOGLE_CHAT', 'TEMPLATED_WEBHOOK',
    ]);
    const schema = (type: string) => types.body.types.find((t: { type: string }) => t.type === type).config_schema;
    expect(schema('SLACK').webhook_url).to.deep.include({ required: true, secret: true });
    const fields = (type: string) => Object.fromEntries(Object.entries(schema(type)).map(([name, f]) => [name, [(f as { required: boolean }).required, (f as { secret: boolean }).secret]]));
    expect(fields('MATTERMOST')).to.deep.equal({ webhook_url: [true, true], username: [false, false], icon_url: [false, false], channel: [false, false] });
    expect(fields('MATRIX')).to.deep.equal({ homeserver: [true, false], access_token: [true, true], room_id: [true, false] });
    expect(fields('GOTIFY')).to.deep.equal({ server: [true, false], token: [true, true], priority: [false, false] });
    expect(fields('PUSHOVER')).to.deep.equal({ app_token: [true, true], user_key: [true, true], priority: [false, false], device: [false, false], api_base: [false, false] });
    expect(fields('GOOGLE_CHAT')).to.deep.equal({ webhook_url: [true, true] });
    expect(fields('TEMPLATED_WEBHOOK')).to.deep.equal({ url: [true, true], method: [false, false], headers: [false, true], content_type: [false, false], body_template: [false, false] });
    expect(schema('TEMPLATED_WEBHOOK').body_template.description).to.include('{{monitor.name}}');
  });

  it('creates a channel whose config is never shown again: reads show which fields are set', async () => {
    const secretUrl = 'https://hooks.slack.example/services/T0/B0/sekrit-token-123';
    const created = await createChannel({ name: 'Ops Slack', type: 'SLACK', config: { webhook_url: secretUrl } });
    expect(created.status).to.equal(201);
    expect(created.text).to.not.include('sekrit-token-123');
    expect(created.body.channel).to.deep.include({ name: 'Ops Slack', type: 'SLACK', enabled: true, is_default: false, last_error: null, last_delivery_at: null });
    expect(created.body.channel.config_fields_set).to.deep.equal(['webhook_url']);
    expect(created.body.channel.owner).to.deep.include({ id: ownerId, email: 'notify-owner@example.com' });
    const list = await vigil.request('GET', `/v1/notification-channels?project_id=${projectId}`, { key });
    expect(list.body).to.be.an('array');
    expect(Object.keys(list.body[0])).to.deep.equal(CHANNEL_ITEM_KEYS);
    expect(list.text).to.not.include('sekrit-token-123');
    const read = await vigil.request('GET', `/v1/notification-channels/${created.body.channel.id}`, { key });
    expect(read.text).to.not.include('sekrit-token-123');
    expect(read.text).to.not.include('config_sealed');
  });

  it('shows a generated webhook signing secret once, on creation only', async () => {
    const created = await createChannel({ name: 'Hook', type: 'WEBHOOK', config: { url: 'https://receiver.example/hook' } });
    expect(created.body.signing_secret).to.match(/^whsec_[A-Za-z0-9+/=]{32}$/);
    const read = await vigil.request('GET', `/v1/notification-channels/${created.body.channel.id}`, { key });
    expect(read.text).to.not.include(created.body.signing_secret);
    expect(read.body.channel.config_fields_set).to.deep.equal(['secret', 'url']);
  });

  it('refuses an EMAIL channel when this server has no SMTP server, rather than failing at the first page', async () => {
    const refused = await createChannel({ name: 'Mail', type: 'EMAIL', config: { to: ['ops@example.com'] } });
    expect(refused.status).to.equal(400);
    expect(refused.body.error).to.equal('type EMAIL is not available on this server: email is sent through an SMTP server and this Vigil has none (its operator sets one with VIGIL_SMTP_HOST)');
    // A bad config is still named first.
    expect((await createChannel({ name: 'Mail', type: 'EMAIL', config: { to: ['not an address'] } })).body.error).to.match(/^config\.to\[0\]/);
    const channels = await vigil.request('GET', `/v1/notification-channels?project_id=${projectId}`, { key });
    expect(channels.body.map((c: { type: string }) => c.type)).to.not.include('EMAIL');
  });

  it('checks each config against its type, naming the field', async () => {
    const missing = await createChannel({ name: 'Bad', type: 'TELEGRAM', config: { chat_id: '42' } });
    expect(missing).to.deep.include({ status: 400, body: { error: 'config.bot_token is required' } });
    const badUrl = await createChannel({ name: 'Bad', type: 'DISCORD', config: { webhook_url: 'not a url' } });
    expect(badUrl.body.error).to.equal('config.webhook_url must be an http or https URL');
    const badType = await createChannel({ name: 'Bad', type: 'PIGEON', config: {} });
    expect(badType.body.error).to.match(/^type must be one of WEBHOOK, SLACK/);
    const noConfig = await createChannel({ name: 'Bad', type: 'SLACK' });
    expect(noConfig.body.error).to.equal('config is required');
  });

  it('replaces a config on update and keeps it sealed', async () => {
    const created = (await createChannel({ name: 'Pager', type: 'PAGERDUTY', config: { routing_key: 'R0UTINGKEY-1' } })).body.channel;
    const patched = await vigil.request('PATCH', `/v1/notification-channels/${created.id}`, { key, body: { name: 'Pager 2', config: { routing_key: 'R0UTINGKEY-2', api_base: 'https://events.eu.pagerduty.com' } } });
    expect(patched.status).to.equal(200);
    expect(patched.body.channel).to.deep.include({ name: 'Pager 2', config_fields_set: ['api_base', 'routing_key'] });
    expect(patched.text).to.not.include('R0UTINGKEY');
  });

  it('refuses to change a channel type, and takes the type it has', async () => {
    const created = (await createChannel({ name: 'Chat', type: 'SLACK', config: { webhook_url: 'https://hooks.example/x' } })).body.channel;
    const changed = await vigil.request('PATCH', `/v1/notification-channels/${created.id}`, { key, body: { type: 'DISCORD' } });
    expect(changed).to.deep.include({ status: 400, body: { error: 'type cannot be changed; create a new channel instead' } });
    expect((await vigil.request('PATCH', `/v1/notification-channels/${created.id}`, { key, body: { type: 'SLACK', name: 'Chat 2' } })).status).to.equal(200);
  });

  it('gates writes: project-scoped keys read only; MEMBER cannot create; deleting needs destroy and OWNER', async () => {
    const managerId = await vigil.user('notify-manager@example.com');
    const memberId = await vigil.user('notify-member@example.com');
    await vigil.member(projectId, managerId, 'MANAGER');
    await vigil.member(projectId, memberId, 'MEMBER');
    const projectKey = await vigil.projectKey(managerId, projectId);
    const member = await vigil.accountKey(memberId, ['manage_notifications']);
    const manager = await vigil.accountKey(managerId, ['manage_notifications', 'destroy']);
    expect((await vigil.request('GET', `/v1/notification-channels`, { key: projectKey })).status).to.equal(200);
    const byProjectKey = await createChannel({ name: 'x', type: 'SLACK', config: { webhook_url: 'https://x.example' } }, projectKey);
    expect(byProjectKey.status).to.equal(403);
    expect(byProjectKey.body.code).to.equal('INSUFFICIENT_API_KEY_SCOPE');
    expect((await createChannel({ name: 'x', type: 'SLACK', config: { webhook_url: 'https://x.example' } }, member)).status).to.equal(403);
    const made = await createChannel({ name: 'x', type: 'SLACK', config: { webhook_url: 'https://x.example' } }, manager);
    expect(made.status).to.equal(201);
    expect((await vigil.request('DELETE', `/v1/notification-channels/${made.body.channel.id}`, { key: manager })).status).to.equal(403);
    expect((await vigil.request('DELETE', `/v1/notification-channels/${made.body.channel.id}`, { key })).status).to.equal(204);
    expect((await vigil.request('GET', `/v1/notification-channels/${made.body.channel.id}`, { key })).status).to.equal(404);
  });

  describe('groups', () => {
    it('bundles channels of its own project: attach and detach answer 204, the channel survives detaching', async () => {
      const group = await vigil.request('POST', '/v1/notification-groups', { key, body: { project_id: projectId, name: 'On call', description: 'primary' } });
      expect(group.status).to.equal(201);
      expect(group.body.group).to.deep.include({ name: 'On call', channel_count: 0, channels: [] });
      const channel = (await createChannel({ name: 'Team chat', type: 'DISCORD', config: { webhook_url: 'https://discord.example/api/webhooks/1/abc' } })).body.channel;
      const attach = await vigil.request('POST', `/v1/notification-groups/${group.body.group.id}/channels`, { key, body: { channel_id: channel.id } });
      expect(attach.status).to.equal(204);
      expect(attach.text).to.equal('');
      const read = await vigil.request('GET', `/v1/notification-groups/${group.body.group.id}`, { key });
      expect(read.body.group.channels.map((c: { id: string }) => c.id)).to.deep.equal([channel.id]);
      const only = await vigil.request('GET', `/v1/notification-groups/${group.body.group.id}/channels`, { key });
      expect(only.body.map((c: { id: string }) => c.id)).to.deep.equal([channel.id]);

      const otherProject = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Elsewhere' } })).body.project.id;
      const foreign = (await vigil.request('POST', '/v1/notification-channels', { key, body: { project_id: otherProject, name: 'x', type: 'SLACK', config: { webhook_url: 'https://x.example' } } })).body.channel;
      const refused = await vigil.request('POST', `/v1/notification-groups/${group.body.group.id}/channels`, { key, body: { channel_id: foreign.id } });
      expect(refused.status).to.equal(400);
      expect(refused.body.error).to.match(/another project/);

      // Someone else's channel answers exactly as a channel that does not exist.
      const strangerId = await vigil.user('notify-stranger@example.com');
      const strangerKey = await vigil.accountKey(strangerId, ALL_SCOPES);
      const strangersProject = (await vigil.request('POST', '/v1/projects', { key: strangerKey, body: { name: 'Theirs' } })).body.project.id;
      const strangers = (await vigil.request('POST', '/v1/notification-channels', { key: strangerKey, body: { project_id: strangersProject, name: 'y', type: 'SLACK', config: { webhook_url: 'https://y.example' } } })).body.channel;
      const attachTo = (channel_id: string) => vigil.request('POST', `/v1/notification-groups/${group.body.group.id}/channels`, { key, body: { channel_id } });
      const theirs = await attachTo(strangers.id);
      const nobodys = await attachTo('00000000-0000-4000-8000-000000000000');
      expect(theirs.status).to.equal(404);
      expect([theirs.status, theirs.text]).to.deep.equal([nobodys.status, nobodys.text]);

      expect((await vigil.request('DELETE', `/v1/notification-groups/${group.body.group.id}/channels/${channel.id}`, { key })).status).to.equal(204);
      expect((await vigil.request('GET', `/v1/notification-channels/${channel.id}`, { key })).status).to.equal(200);
      expect((await vigil.request('GET', `/v1/notification-groups/${group.body.group.id}`, { key })).body.group.channel_count).to.equal(0);
    });

    it('lists groups as a bare array with their channel count and wired monitors; deleting one unwires it silently', async () => {
      const group = (await vigil.request('POST', '/v1/notification-groups', { key, body: { project_id: projectId, name: 'Nightly' } })).body.group;
      const monitor = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Wired', type: 'JOB_BASIC', schedule: 'x', notification_group_ids: [group.id] } })).body.monitor;
      expect(monitor.notification_group_ids).to.deep.equal([group.id]);
      const list = await vigil.request('GET', `/v1/notification-groups?project_id=${projectId}`, { key });
      const listed = list.body.find((g: { id: string }) => g.id === group.id);
      expect(Object.keys(listed)).to.deep.equal(['id', 'project_id', 'name', 'description', 'is_default', 'channel_count', 'monitors']);
      expect(listed.monitors).to.deep.equal([{ id: monitor.id, name: 'Wired' }]);
      expect((await vigil.request('DELETE', `/v1/notification-groups/${group.id}`, { key })).status).to.equal(204);
      expect((await vigil.request('GET', `/v1/monitors/${monitor.id}`, { key })).body.monitor.notification_group_ids).to.deep.equal([]);
    });
  });
});
