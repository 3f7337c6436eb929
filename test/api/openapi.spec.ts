import { expect } from 'chai';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { openApiPath } from '../../src/api/openapi/document.js';
import { startTarget } from '../support/http-targets.js';
import { servedRoutes } from '../support/served-routes.js';
import { ALL_SCOPES, type Response, TestVigil } from '../support/test-vigil.js';

type Json = Record<string, any>;

describe('OpenAPI document', () => {
  let vigil: TestVigil;
  let document: Json;
  before(async () => {
    vigil = await TestVigil.start();
    document = (await vigil.request('GET', '/openapi.json')).body;
  });
  after(() => vigil.stop());

  it('is OpenAPI 3.1 with the API key scheme', () => {
    expect(document['openapi']).to.equal('3.1.0');
    expect(document['components'].securitySchemes.apiKey).to.deep.equal({
      type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'An API key such as `vgl_live_…`',
    });
  });

  it('documents every route the routers serve (HEAD rides on GET), and nothing they do not', () => {
    const served = servedRoutes(vigil.vigil.api!);
    expect(served.length).to.be.greaterThan(60);
    const missing = served
      .filter((route) => route.method !== 'HEAD' || route.path.includes('ping/'))
      .filter((route) => !document['paths'][openApiPath(route.path)]?.[route.method.toLowerCase()])
      .map((route) => `${route.method} ${route.path}`);
    expect(missing).to.deep.equal([]);

    const servedKeys = new Set(served.map((route) => `${route.method.toLowerCase()} ${openApiPath(route.path)}`));
    const stale = Object.entries(document['paths'] as Json).flatMap(([path, operations]) =>
      Object.keys(operations).filter((method) => !servedKeys.has(`${method} ${path}`)).map((method) => `${method} ${path}`),
    );
    expect(stale).to.deep.equal([]);
  });

  it('derives request schemas from the codecs the handlers decode with', () => {
    const createMonitor = document['paths']['/v1/monitors'].post.requestBody.content['application/json'].schema;
    expect(createMonitor.required).to.include.members(['name', 'type']);
    expect(createMonitor.properties.name).to.deep.equal({ type: 'string', minLength: 1, maxLength: 100, pattern: '^[^\\u0000-\\u001f\\u007f-\\u009f]*$' });
    expect(createMonitor.properties.type.enum).to.include('JOB_CRON');
    expect(createMonitor.properties.tags).to.deep.include({ type: 'array', maxItems: 10 });
    expect(createMonitor.properties.project_id).to.deep.equal({ type: 'string', format: 'uuid' });

    expect(createMonitor.properties.type.enum).to.include.members(['UPTIME_HTTP', 'UPTIME_TCP', 'UPTIME_DNS']);
    expect(createMonitor.properties.tcp_port).to.deep.equal({ type: 'integer', minimum: 1, maximum: 65535 });
    expect(createMonitor.properties.dns_record_type).to.deep.equal({ type: 'string', enum: ['A', 'AAAA', 'CNAME', 'MX', 'TXT'] });
    expect(createMonitor.properties.uptime_json_operator.enum).to.deep.equal(['equals', 'not_equals', 'contains', 'exists', 'greater_than', 'less_than']);
    for (const field of ['tcp_host', 'tcp_timeout_ms', 'dns_hostname', 'dns_expected', 'dns_match', 'dns_resolver', 'dns_timeout_ms', 'uptime_json_query', 'uptime_json_expected']) {
      expect(createMonitor.properties, field).to.have.property(field);
      expect(document['paths']['/v1/monitors/{monitorId}'].patch.requestBody.content['application/json'].schema.properties, field).to.have.property(field);
      expect(document['paths']['/v1/monitors/{monitorId}'].get.responses['200'].content['application/json'].schema.properties.monitor.properties, field).to.have.property(field);
    }

    const pingHistory = document['paths']['/v1/monitors/{monitorId}/pings'].get.parameters;
    expect(pingHistory.map((p: Json) => p['name'])).to.include.members(['monitorId', 'page', 'limit', 'run_id', 'exit_code', 'from_date', 'event']);
    expect(pingHistory.find((p: Json) => p['name'] === 'limit').schema).to.deep.equal({ type: 'integer', minimum: 1, maximum: 100 });

    const channelConfig = document['components'].schemas.ChannelConfigs.anyOf.find((s: Json) => s['title'] === 'WEBHOOK');
    expect(channelConfig.required).to.deep.equal(['url']);
    const email = document['components'].schemas.ChannelConfigs.anyOf.find((s: Json) => s['title'] === 'EMAIL');
    expect(email.properties.to).to.deep.include({ type: 'array', minItems: 1, maxItems: 20 });
  });

  it('documents the errors: 400, 401, 403, 404, 429 and 503 on a REST write; none of the key errors on the Ping API', () => {
    const acknowledge = document['paths']['/v1/incidents/{incidentId}/acknowledge'].post;
    expect(Object.keys(acknowledge.responses)).to.have.members(['200', '400', '401', '403', '404', '429', '503']);
    expect(acknowledge.responses['429'].headers['Retry-After']).to.exist;
    expect(acknowledge.security).to.deep.equal([{ apiKey: [] }]);
    const ping = document['paths']['/v1/ping/{monitorId}/{suffix}'];
    expect(Object.keys(ping)).to.have.members(['get', 'post', 'head']);
    expect(ping.get.security).to.deep.equal([]);
    expect(ping.get.responses).to.not.have.any.keys('401', '403', '429');
    expect(ping.get.responses['503'].headers['Retry-After'], 'a ping the disk could not record').to.exist;
  });

  describe('responses conform to the published schemas', () => {
    const covered = new Set<string>();
    let ajv: Ajv2020;
    let templates: { method: string; path: string; pattern: RegExp; params: number }[];

    before(() => {
      ajv = new Ajv2020({ strict: false, allErrors: true });
      ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
      ajv.addFormat('date-time', (value: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(value) && !Number.isNaN(Date.parse(value)));
      ajv.addFormat('email', /^[^\s@]+@[^\s@]+$/);
      templates = Object.entries(document['paths'] as Json).flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => ({
          method,
          path,
          pattern: new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`),
          params: (path.match(/\{/g) ?? []).length,
        })),
      );
    });

    /** Sends the request and checks the answer against the document's schema for that status. */
    async function call(method: string, path: string, options: Parameters<TestVigil['request']>[2] = {}, expectedStatus?: number): Promise<Response> {
      const response = await vigil.request(method, path, options);
      if (expectedStatus === undefined) expect(response.status, `${method} ${path}: ${response.text}`).to.be.below(300);
      else expect(response.status, `${method} ${path}: ${response.text}`).to.equal(expectedStatus);
      const bare = path.split('?')[0]!;
      const template = templates
        .filter((candidate) => candidate.method === method.toLowerCase() && candidate.pattern.test(bare))
        .sort((a, b) => a.params - b.params)[0];
      expect(template, `${method} ${bare} is documented`).to.exist;
      const documented = document['paths'][template!.path][template!.method].responses[String(response.status)];
      expect(documented, `${method} ${template!.path} documents status ${response.status} (${response.text})`).to.exist;
      const content: Json = documented.content ?? {};
      const schema = content['application/json']?.schema;
      const [otherType] = Object.keys(content);
      if (schema) {
        const validate = ajv.compile({ ...schema, components: document['components'] });
        expect(validate(response.body), `${method} ${template!.path} ${response.status}: ${ajv.errorsText(validate.errors)}\n${response.text.slice(0, 2000)}`).to.equal(true);
      } else if (otherType) {
        if (otherType !== '*/*') expect(response.headers.get('content-type'), `${method} ${template!.path} ${response.status}`).to.contain(otherType);
      } else {
        expect(response.text, `${method} ${template!.path} ${response.status} has no documented body`).to.equal('');
      }
      if (response.status < 300) covered.add(`${template!.method} ${template!.path}`);
      return response;
    }

    it('across a working session that touches every operation', async () => {
      const target = await startTarget((_request, response) => response.writeHead(200).end('all good'));
      const sink = await startTarget((_request, response) => response.writeHead(204).end());
      try {
        const ownerId = await vigil.user('openapi@example.com');
        const key = await vigil.accountKey(ownerId, ALL_SCOPES);
        const colleagueId = await vigil.user('colleague@example.com');

        await call('GET', '/openapi.json');
        await call('GET', '/docs');
        await call('GET', '/docs/explorer.js');
        await call('GET', '/docs/assets/swagger-ui-bundle.js');
        await call('GET', '/docs/assets/index.html', {}, 404);
        await call('GET', '/healthz');
        await call('GET', '/readyz');
        await call('GET', '/metrics');

        const project = (await call('POST', '/v1/projects', { key, body: { name: 'Documented' } })).body.project;
        await call('GET', '/v1/projects', { key });
        await call('GET', `/v1/projects/${project.id}`, { key });
        await call('PATCH', `/v1/projects/${project.id}`, { key, body: { description: 'described' } });
        await call('POST', `/v1/projects/${project.id}/ping-key/rotate`, { key });
        await call('POST', `/v1/projects/${project.id}/members`, { key, body: { user_id: colleagueId, role: 'MEMBER' } });
        await call('PATCH', `/v1/projects/${project.id}/members/${colleagueId}`, { key, body: { role: 'READONLY' } });
        await call('DELETE', `/v1/projects/${project.id}/members/${colleagueId}`, { key });
        const invited = (await call('POST', `/v1/projects/${project.id}/invitations`, { key, body: { email: 'colleague@example.com', role: 'MEMBER' } })).body;
        await call('GET', `/v1/projects/${project.id}/invitations`, { key });
        const token = String(invited.url).split('/invitations/')[1];
        await call('POST', '/v1/invitations/accept', { key: await vigil.accountKey(colleagueId, ['read']), body: { token } });
        const revocable = (await call('POST', `/v1/projects/${project.id}/invitations`, { key, body: { email: 'later@example.com', role: 'READONLY' } })).body.invitation;
        await call('DELETE', `/v1/projects/${project.id}/invitations/${revocable.id}`, { key });
        await call('DELETE', `/v1/projects/${project.id}/members/${colleagueId}`, { key });

        const minted = (await call('POST', '/v1/api-keys', { key, body: { name: 'ci', expires_in_days: 7, scopes: ['read'] } })).body.api_key;
        await call('GET', '/v1/api-keys', { key });
        await call('DELETE', `/v1/api-keys/${minted.id}`, { key });

        const channel = (await call('POST', '/v1/notification-channels', { key, body: { project_id: project.id, name: 'Hook', type: 'WEBHOOK', config: { url: sink.url } } })).body.channel;
        await call('GET', '/v1/notification-channels/types', { key });
        await call('GET', `/v1/notification-channels?project_id=${project.id}`, { key });
        await call('GET', `/v1/notification-channels/${channel.id}`, { key });
        await call('PATCH', `/v1/notification-channels/${channel.id}`, { key, body: { name: 'Hook 2' } });
        await call('POST', `/v1/notification-channels/${channel.id}/test`, { key });
        const group = (await call('POST', '/v1/notification-groups', { key, body: { project_id: project.id, name: 'On call' } })).body.group;
        await call('GET', `/v1/notification-groups?project_id=${project.id}`, { key });
        await call('POST', `/v1/notification-groups/${group.id}/channels`, { key, body: { channel_id: channel.id } });
        await call('GET', `/v1/notification-groups/${group.id}`, { key });
        await call('GET', `/v1/notification-groups/${group.id}/channels`, { key });
        await call('PATCH', `/v1/notification-groups/${group.id}`, { key, body: { description: 'night shift' } });
        const schedule = (await call('POST', '/v1/on-call-schedules', {
          key, body: { project_id: project.id, name: 'Primary', time_zone: 'Europe/Berlin', handoff_time: '09:00', rotation: 'weekly', starts_on: '2026-11-02', participants: [] },
        })).body.on_call_schedule;
        await call('GET', `/v1/on-call-schedules?project_id=${project.id}`, { key });
        await call('GET', `/v1/on-call-schedules/${schedule.id}`, { key });
        await call('PATCH', `/v1/on-call-schedules/${schedule.id}`, { key, body: { rotation: 3 } });
        await call('DELETE', `/v1/on-call-schedules/${schedule.id}`, { key });
        const policy = (await call('POST', '/v1/escalation-policies', { key, body: { project_id: project.id, name: 'Escalate', steps: [{ delay_seconds: 0, notification_group_ids: [group.id] }] } })).body.escalation_policy;
        await call('GET', `/v1/escalation-policies?project_id=${project.id}`, { key });
        await call('GET', `/v1/escalation-policies/${policy.id}`, { key });
        await call('PATCH', `/v1/escalation-policies/${policy.id}`, { key, body: { repeat: 1 } });
        await call('DELETE', `/v1/escalation-policies/${policy.id}`, { key });

        const job = (await call('POST', '/v1/monitors', { key, body: { project_id: project.id, name: 'Nightly', type: 'JOB_CRON', schedule: '0 3 * * *', notification_group_ids: [group.id] } })).body.monitor;
        const site = (await call('POST', '/v1/monitors', { key, body: { project_id: project.id, name: 'Site', type: 'UPTIME_HTTP', schedule: '1m', uptime_url: target.url } })).body.monitor;
        // The other uptime types' settings in the published Monitor schema; removed before any check runs.
        for (const fields of [
          { type: 'UPTIME_TCP', tcp_host: '127.0.0.1', tcp_port: Number(new URL(target.url).port) },
          { type: 'UPTIME_DNS', dns_hostname: 'example.test', dns_expected: ['192.0.2.1'], dns_resolver: '127.0.0.1:9' },
          { type: 'UPTIME_HTTP', uptime_url: target.url, uptime_json_query: 'status', uptime_json_operator: 'exists' },
        ]) {
          const other = (await call('POST', '/v1/monitors', { key, body: { project_id: project.id, name: fields.type, schedule: '1m', ...fields } })).body.monitor;
          await call('GET', `/v1/monitors/${other.id}`, { key });
          await vigil.request('DELETE', `/v1/monitors/${other.id}`, { key });
        }
        await call('GET', `/v1/monitors?project_id=${project.id}`, { key });
        await call('GET', `/v1/monitors/${job.id}`, { key });
        await call('GET', `/v1/monitors/${job.id}?as_of=${new Date(vigil.clock.now().getTime() + 1000).toISOString()}`, { key });
        await call('PATCH', `/v1/monitors/${job.id}`, { key, body: { description: 'backs up the database' } });
        await call('GET', `/v1/monitors/${job.id}/schedule`, { key });

        const slugPing = await call('POST', `/v1/s-ping/${(await vigil.request('GET', `/v1/projects/${project.id}`, { key })).body.project.ping_key}/${job.slug}/start?run_id=r1`, { rawBody: 'starting' });
        expect(slugPing.body.event).to.equal('START');
        await call('GET', `/v1/ping/${job.id}/3?run_id=r1`);
        await call('POST', `/v1/ping/${job.id}`, { rawBody: 'output' });
        const pingKey = (await vigil.request('GET', `/v1/projects/${project.id}`, { key })).body.project.ping_key;
        await call('GET', `/v1/ping/${job.id}`);
        await call('POST', `/v1/ping/${job.id}/log`, { rawBody: 'note' });
        await call('GET', `/v1/s-ping/${pingKey}/${job.slug}`);
        await call('POST', `/v1/s-ping/${pingKey}/${job.slug}`, { rawBody: 'note' });
        await call('GET', `/v1/s-ping/${pingKey}/${job.slug}/log`);
        const ping = (await call('GET', `/v1/monitors/${job.id}/pings`, { key })).body.data[0];
        await call('GET', `/v1/monitors/${job.id}/pings/${ping.id}`, { key });
        await call('GET', `/v1/monitors/${job.id}/warnings`, { key });
        await call('GET', `/v1/monitors/${job.id}/events`, { key });
        await call('GET', `/v1/projects/${project.id}/events`, { key });

        await vigil.settle(); // the Ping API answers once the ping is recorded, not once it is projected
        const incident = (await call('GET', `/v1/incidents?project_id=${project.id}&status=RESOLVED`, { key })).body.data[0];
        expect(incident, 'the failure opened an incident and the success resolved it').to.exist;
        await call('GET', `/v1/incidents/${incident.id}`, { key });
        await call('GET', `/v1/incidents/${incident.id}/timeline`, { key });
        await call('GET', `/v1/monitors/${job.id}/incidents`, { key });
        await call('GET', `/v1/ping/${job.id}/fail`);
        await vigil.settle();
        const open = (await call('GET', `/v1/incidents?project_id=${project.id}&status=OPEN`, { key })).body.data[0];
        await call('POST', `/v1/incidents/${open.id}/notes`, { key, body: { text: 'Looking into it', visibility: 'public' } }, 201);
        await call('POST', `/v1/incidents/${open.id}/acknowledge`, { key });
        await call('POST', `/v1/incidents/${open.id}/resolve`, { key });
        await call('POST', `/v1/incidents/${open.id}/notes`, { key, body: { text: 'Not open any more' } }, 400);
        await call('GET', `/v1/incidents/${open.id}/notes`, { key });

        vigil.clock.advance(61_000); // the pings above counted as the site's check-in
        expect(await vigil.check()).to.equal(1);
        await call('GET', `/v1/monitors/${site.id}/check-results/latest`, { key });
        await call('GET', `/v1/monitors/${site.id}/response-time-stats?period_hours=24`, { key });
        await call('GET', `/v1/projects/${project.id}/uptime-summary`, { key });
        await call('POST', '/v1/tools/check-http', { key, body: { url: target.url, project_id: project.id } });

        const statusPage = (await call('POST', `/v1/projects/${project.id}/status-pages`, {
          key, body: { slug: 'documented', title: 'Documented', published: true, monitors: [{ monitor_id: job.id }, { monitor_id: site.id, display_name: 'Site' }] },
        })).body.status_page;
        await call('GET', `/v1/projects/${project.id}/status-pages`, { key });
        await call('GET', `/v1/status-pages/${statusPage.id}`, { key });
        await call('PATCH', `/v1/status-pages/${statusPage.id}`, { key, body: { description: 'What customers see' } });
        await call('GET', '/status/documented');
        await call('GET', `/status/documented/day/${vigil.clock.now().toISOString().slice(0, 10)}`);
        const badgeKey = (await call('GET', `/v1/projects/${project.id}/badge-key`, { key })).body.badge_key.key;
        await call('GET', `/badge/${badgeKey}.svg`);
        await call('GET', `/badge/${badgeKey}/${job.slug}.json`);
        await call('POST', `/v1/projects/${project.id}/badge-key`, { key });
        await call('DELETE', `/v1/status-pages/${statusPage.id}`, { key });
        const deploy = (await call('POST', `/v1/projects/${project.id}/maintenance-windows`, { key, body: { name: 'Deploy', monitor_ids: [job.id], duration_seconds: 1800 } }, 201)).body.maintenance_window;
        await call('POST', `/v1/projects/${project.id}/maintenance-windows`, { key, body: { name: 'Sundays', rrule: 'RRULE:FREQ=WEEKLY;BYDAY=SU;BYHOUR=2', timezone: 'Europe/Paris', duration_seconds: 3600 } }, 201);
        await call('GET', `/v1/projects/${project.id}/maintenance-windows`, { key });
        await call('GET', `/v1/maintenance-windows/${deploy.id}`, { key });
        await call('PATCH', `/v1/maintenance-windows/${deploy.id}`, { key, body: { name: 'Deploy v2' } });
        await call('POST', `/v1/maintenance-windows/${deploy.id}/end`, { key });
        await call('DELETE', `/v1/maintenance-windows/${deploy.id}`, { key });

        await call('POST', `/v1/monitors/${job.id}/pause`, { key });
        await call('POST', `/v1/monitors/${job.id}/resume`, { key });
        await call('DELETE', `/v1/notification-groups/${group.id}/channels/${channel.id}`, { key });
        await call('DELETE', `/v1/notification-groups/${group.id}`, { key });
        await call('DELETE', `/v1/notification-channels/${channel.id}`, { key });
        await call('DELETE', `/v1/monitors/${site.id}`, { key });
        await call('DELETE', `/v1/projects/${project.id}`, { key });

        // Errors conform too.
        await call('GET', '/v1/projects', {}, 401);
        await call('POST', '/v1/projects', { key, body: { name: '' } }, 400);
        await call('GET', `/v1/monitors/${site.id}`, { key }, 404);
        await call('GET', `/v1/ping/${site.id}`, {}, 404);
      } finally {
        await target.close();
        await sink.close();
      }

      // TLS and DNS inspection need a certificate and a resolver of their own; their specs cover them.
      const uncovered = templates
        .filter((operation) => operation.method !== 'head' && !operation.path.startsWith('/v1/tools/check-ssl') && !operation.path.startsWith('/v1/tools/check-dns'))
        .map((operation) => `${operation.method} ${operation.path}`)
        .filter((operation) => !covered.has(operation));
      expect(uncovered).to.deep.equal([]);
    });
  });
});
