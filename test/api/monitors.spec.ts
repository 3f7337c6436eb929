import { expect } from 'chai';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

describe('Monitors API', () => {
  let vigil: TestVigil;
  let key: string;
  let projectId: string;
  before(async () => {
    vigil = await TestVigil.start();
    const ownerId = await vigil.user('monitors@example.com');
    key = await vigil.accountKey(ownerId, ALL_SCOPES);
    projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Jobs' } })).body.project.id;
  });
  after(() => vigil.stop());

  const create = (body: Record<string, unknown>) =>
    vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Backup', type: 'JOB_HEARTBEAT', schedule: '1h', ...body } });
  const uptime = (body: Record<string, unknown>) => create({ type: 'UPTIME_HTTP', schedule: '1m', uptime_url: 'https://example.com/health', ...body });

  it('creates a monitor with every default, answering 201 { message, monitor }, readable at once', async () => {
    const created = await create({ name: 'Nightly Backup' });
    expect(created.status).to.equal(201);
    expect(created.body.message).to.be.a('string');
    const monitor = created.body.monitor;
    expect(monitor).to.include({
      project_id: projectId, name: 'Nightly Backup', slug: 'nightly-backup', description: '', type: 'JOB_HEARTBEAT', schedule: '1h',
      timezone: 'UTC', grace_period_seconds: 300, schedule_tolerance: 1, failure_tolerance: 1, min_duration_seconds: null,
      max_duration_seconds: null, alert_enabled: true, alert_surge_threshold: 10, alerts_paused_until: null, retention_count: 200,
      status: 'UP', consecutive_failures: 0, consecutive_misses: 0, consecutive_alerts: 0, last_success_at: null, total_pings_received: 0,
    });
    expect(monitor.tags).to.deep.equal([]);
    expect(monitor.notification_group_ids).to.deep.equal([]);
    expect(monitor.notification_channel_ids).to.deep.equal([]);
    expect(monitor.created_at).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(monitor.next_expected_at).to.equal(new Date(Date.parse(monitor.created_at) + 3600_000).toISOString());
    expect(monitor).to.not.have.property('uptime_url');
    const read = await vigil.request('GET', `/v1/monitors/${monitor.id}`, { key });
    expect(read.body.monitor).to.deep.equal(monitor);
    const listed = await vigil.request('GET', `/v1/monitors?project_id=${projectId}`, { key });
    expect(listed.body.monitors.map((m: { id: string }) => m.id)).to.include(monitor.id);
  });

  it('shows every uptime field and uptime_locations on UPTIME_HTTP monitors only', async () => {
    const created = await uptime({ name: 'Homepage' });
    expect(created.status).to.equal(201);
    expect(created.body.monitor).to.deep.include({
      uptime_url: 'https://example.com/health', uptime_method: 'GET', uptime_expected_status: [], uptime_keyword: null,
      uptime_keyword_absent: false, uptime_headers: {}, uptime_request_body: null, uptime_timeout_ms: 10000,
      uptime_follow_redirects: true, uptime_verify_ssl: true, uptime_locations: ['local'],
    });
  });

  it('clears uptime_keyword and uptime_request_body with null, as monitor bodies show them unset', async () => {
    const created = await uptime({ name: 'Keyword', uptime_method: 'POST', uptime_keyword: 'healthy', uptime_request_body: '{}' });
    expect(created.body.monitor).to.include({ uptime_keyword: 'healthy', uptime_request_body: '{}' });
    const cleared = await vigil.request('PATCH', `/v1/monitors/${created.body.monitor.id}`, { key, body: { uptime_keyword: null, uptime_request_body: null } });
    expect(cleared.status, cleared.text).to.equal(200);
    expect(cleared.body.monitor).to.include({ uptime_keyword: null, uptime_request_body: null });
    expect((await uptime({ name: 'Echoed', uptime_keyword: null, uptime_request_body: null })).status).to.equal(201);
  });

  it('keeps next_expected_at null on JOB_BASIC monitors and computes it in the zone for JOB_CRON', async () => {
    expect((await create({ name: 'Basic', type: 'JOB_BASIC', schedule: 'whenever' })).body.monitor.next_expected_at).to.equal(null);
    const cron = await create({ name: 'Cron', type: 'JOB_CRON', schedule: '0 3 * * *', timezone: 'Europe/Berlin' });
    expect(cron.status).to.equal(201);
    expect(new Date(cron.body.monitor.next_expected_at).toLocaleString('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit' })).to.equal('03:00');
    expect((await create({ name: 'Macro', type: 'JOB_CRON', schedule: '@hourly' })).status).to.equal(201);
  });

  describe('JOB_CRON schedules that never fire', () => {
    const refusals: [string, RegExp][] = [
      ['0 0 31 2 *', /^schedule: "0 0 31 2 \*" never fires \(February has no 31st\)$/],
      ['0 0 30 2 *', /^schedule: "0 0 30 2 \*" never fires \(February has no 30th\)$/],
      ['RRULE:FREQ=DAILY;INTERVAL=0', /^schedule: RRULE INTERVAL must be at least 1, got 0$/],
      ['RRULE:FREQ=DAILY;COUNT=3', /^schedule: the RRULE's COUNT=3 is used up \(occurrences count from 2020-01-01\): it has no occurrence after 2026-/],
      ['RRULE:FREQ=DAILY;UNTIL=20210101T000000Z', /^schedule: the RRULE's UNTIL=20210101T000000Z is used up: it has no occurrence after 2026-/],
      ['RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30', /^schedule: "RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30" never fires \(February has no 30th\)$/],
      ['RRULE:FREQ=DAILY;BYHOUR=99', /^schedule: RRULE BYHOUR values must be 0 to 23, got 99$/],
      ['RRULE:FREQ=DAILY;BYMINUTE=75', /^schedule: RRULE BYMINUTE values must be 0 to 59, got 75$/],
      ['RRULE:FREQ=DAILY;FOO=1', /^schedule: RRULE has an unknown part FOO/],
      ['0 0 * 13 *', /^schedule: cron month values must be 1 to 12, got 13$/],
    ];
    let cronMonitorId: string;
    before(async () => {
      cronMonitorId = (await create({ name: 'Cron to change', type: 'JOB_CRON', schedule: '0 3 * * *' })).body.monitor.id;
    });

    for (const [schedule, message] of refusals) {
      it(`refuses ${schedule} with a 400 saying why, on create and on update`, async () => {
        const created = await create({ name: 'Never', type: 'JOB_CRON', schedule });
        expect(created.status, created.text).to.equal(400);
        expect(created.body.error).to.match(message);
        const patched = await vigil.request('PATCH', `/v1/monitors/${cronMonitorId}`, { key, body: { schedule } });
        expect(patched.status, patched.text).to.equal(400);
        expect(patched.body.error).to.match(message);
      });
    }

    it('refuses an RRULE with more occurrences than a look-up may walk, with a 400 naming schedule and why, on create and on update', async () => {
      // Issue 37: accepted once, such a rule then cost every ping seconds of the main thread.
      const until = (n: number) => Array.from({ length: n }, (_, i) => i).join(',');
      const everyDay = 'BYDAY=MO,TU,WE,TH,FR,SA,SU';
      const refusals: [string, RegExp][] = [
        [`RRULE:FREQ=YEARLY;${everyDay};BYHOUR=${until(18)};BYMINUTE=${until(18)};BYSECOND=${until(17)}`, /^schedule: RRULE BYSECOND takes one value, got 17: /],
        [`RRULE:FREQ=YEARLY;${everyDay};BYHOUR=${until(18)};BYMINUTE=${until(18)}`, /^schedule: RRULE has up to 118584 occurrences a year .*at most 500/],
      ];
      for (const [schedule, message] of refusals) {
        const created = await create({ name: 'Busy', type: 'JOB_CRON', schedule });
        expect(created.status, created.text).to.equal(400);
        expect(created.body.error).to.match(message);
        const patched = await vigil.request('PATCH', `/v1/monitors/${cronMonitorId}`, { key, body: { schedule } });
        expect(patched.status, patched.text).to.equal(400);
        expect(patched.body.error).to.match(message);
      }
    });

    it('keeps the schedule it had after a refused update', async () =>
      expect((await vigil.request('GET', `/v1/monitors/${cronMonitorId}`, { key })).body.monitor.schedule).to.equal('0 3 * * *'));

    it('accepts the edges: February 29th (leap years only) and the last hour of the day', async () => {
      const leap = await create({ name: 'Leap day', type: 'JOB_CRON', schedule: '0 0 29 2 *' });
      expect(leap.status, leap.text).to.equal(201);
      expect(leap.body.monitor.next_expected_at).to.equal('2028-02-29T00:00:00.000Z');
      const lastHour = await create({ name: 'Last hour', type: 'JOB_CRON', schedule: 'RRULE:FREQ=DAILY;BYHOUR=23;BYMINUTE=0;BYSECOND=0' });
      expect(lastHour.status, lastHour.text).to.equal(201);
      expect(lastHour.body.monitor.next_expected_at).to.match(/T23:00:00.000Z$/);
      const patched = await vigil.request('PATCH', `/v1/monitors/${cronMonitorId}`, { key, body: { schedule: 'RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;BYHOUR=0;BYMINUTE=0;BYSECOND=0' } });
      expect(patched.status, patched.text).to.equal(200);
      expect(patched.body.monitor.next_expected_at).to.equal('2028-02-29T00:00:00.000Z');
    });
  });

  describe('limits, accepted at the limit and refused one past it', () => {
    const cases: [string, Record<string, unknown>, Record<string, unknown>, RegExp][] = [
      ['name', { name: 'n'.repeat(100) }, { name: 'n'.repeat(101) }, /^name must be a string of 1 to 100 characters$/],
      ['empty name', { name: 'x' }, { name: '' }, /^name must be/],
      ['description', { description: 'd'.repeat(500) }, { description: 'd'.repeat(501) }, /^description must be a string of at most 500 characters$/],
      ['slug length', { slug: 's'.repeat(50) }, { slug: 's'.repeat(51) }, /^slug must be lowercase letters, digits and hyphens, at most 50 characters$/],
      ['slug characters', { slug: 'ok-slug-1' }, { slug: 'Not_OK' }, /^slug must be lowercase/],
      ['tag count', { tags: Array.from({ length: 10 }, (_, i) => `t${i}`) }, { tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }, /^tags must be an array of at most 10 items$/],
      ['tag length', { tags: ['t'.repeat(50)] }, { tags: ['ok', 't'.repeat(51)] }, /^tags\[1\] must be a string of 1 to 50 characters$/],
      ['retention_count low', { retention_count: 10 }, { retention_count: 9 }, /^retention_count must be an integer from 10 to 1000$/],
      ['retention_count high', { retention_count: 1000 }, { retention_count: 1001 }, /^retention_count must be an integer from 10 to 1000$/],
      ['schedule_tolerance', { schedule_tolerance: 1 }, { schedule_tolerance: 0 }, /^schedule_tolerance must be an integer from 1 to 1000$/],
      ['failure_tolerance', { failure_tolerance: 1 }, { failure_tolerance: 0 }, /^failure_tolerance must be an integer from 1 to 1000$/],
      ['grace_period_seconds', { grace_period_seconds: 0 }, { grace_period_seconds: -1 }, /^grace_period_seconds must be an integer/],
      ['alert_surge_threshold', { alert_surge_threshold: 1 }, { alert_surge_threshold: 0 }, /^alert_surge_threshold must be an integer/],
      ['alert_enabled', { alert_enabled: false }, { alert_enabled: 'no' }, /^alert_enabled must be a boolean$/],
      ['durations', { min_duration_seconds: 59, max_duration_seconds: 60 }, { min_duration_seconds: 60, max_duration_seconds: 60 }, /^min_duration_seconds must be less than max_duration_seconds$/],
      ['timezone', { timezone: 'America/New_York' }, { timezone: 'Mars/Olympus' }, /^timezone must be an IANA time zone/],
      ['heartbeat schedule', { schedule: '30s' }, { schedule: '0 * * * *' }, /^schedule must be an interval such as 30s/],
      ['cron schedule', { type: 'JOB_CRON', schedule: '*/5 * * * *' }, { type: 'JOB_CRON', schedule: '*/5 * * *' }, /^schedule must be a five-field cron expression/],
      ['type', { type: 'JOB_BASIC', schedule: 'x' }, { type: 'JOB_FOO' }, /^type must be one of JOB_CRON, JOB_HEARTBEAT, JOB_BASIC, UPTIME_HTTP, UPTIME_TCP, UPTIME_DNS$/],
      ['group ids', { notification_group_ids: [] }, { notification_group_ids: ['3f1c6f43-6f5b-4c55-9a34-0c2b8f5d2a11'] }, /^notification_group_ids: notification group .* does not exist in this project$/],
      ['channel ids', { notification_channel_ids: [] }, { notification_channel_ids: ['not-a-uuid'] }, /^notification_channel_ids\[0\] must be a UUID$/],
      ['uptime on a job', {}, { uptime_timeout_ms: 5000 }, /^uptime_timeout_ms is only accepted on UPTIME_HTTP monitors$/],
    ];
    for (const [label, ok, bad, message] of cases) {
      it(label, async () => {
        expect((await create({ name: `ok ${label}`, ...ok })).status, 'at the limit').to.equal(201);
        const refused = await create(bad);
        expect(refused.status, 'one past the limit').to.equal(400);
        expect(refused.body.error).to.match(message);
      });
    }

    const uptimeCases: [string, Record<string, unknown>, Record<string, unknown>, RegExp][] = [
      ['uptime_url required', { uptime_url: 'http://127.0.0.1:9/x' }, { uptime_url: undefined }, /^uptime_url is required for UPTIME_HTTP monitors$/],
      ['uptime_url scheme', { uptime_url: 'http://example.com' }, { uptime_url: 'ftp://example.com' }, /^uptime_url must be an http or https URL/],
      ['uptime_url credentials', { uptime_url: 'https://example.com' }, { uptime_url: 'https://user:secret@example.com' }, /^uptime_url must not contain credentials/],
      ['uptime_headers hop-by-hop', { uptime_headers: { Authorization: 'Bearer x' } }, { uptime_headers: { Connection: 'close' } }, /^uptime_headers must not set the hop-by-hop header Connection$/],
      ['uptime_keyword', { uptime_keyword: 'k'.repeat(1024) }, { uptime_keyword: 'k'.repeat(1025) }, /^uptime_keyword must be a string of 1 to 1024 characters$/],
      ['uptime_request_body', { uptime_method: 'POST', uptime_request_body: 'b'.repeat(10000) }, { uptime_request_body: 'b'.repeat(10001) }, /^uptime_request_body must be a string of at most 10000 characters$/],
      ['uptime_timeout_ms low', { uptime_timeout_ms: 1000 }, { uptime_timeout_ms: 999 }, /^uptime_timeout_ms must be an integer from 1000 to 30000$/],
      ['uptime_timeout_ms high', { uptime_timeout_ms: 30000 }, { uptime_timeout_ms: 30001 }, /^uptime_timeout_ms must be an integer from 1000 to 30000$/],
      ['uptime_expected_status', { uptime_expected_status: [100, 599] }, { uptime_expected_status: [200, 600] }, /^uptime_expected_status\[1\] must be an integer from 100 to 599$/],
      ['uptime_method', { uptime_method: 'HEAD' }, { uptime_method: 'DELETE' }, /^uptime_method must be one of GET, HEAD, POST$/],
      ['uptime schedule', { schedule: '5m' }, { schedule: '@hourly' }, /^schedule must be an interval such as 30s.*UPTIME_HTTP/],
    ];
    for (const [label, ok, bad, message] of uptimeCases) {
      it(label, async () => {
        expect((await uptime({ name: `ok ${label}`, ...ok })).status, 'at the limit').to.equal(201);
        const refused = await uptime(bad);
        expect(refused.status, 'one past the limit').to.equal(400);
        expect(refused.body.error).to.match(message);
      });
    }
  });

  it('keeps slugs unique per project: an explicit duplicate is refused, a derived one gets a suffix', async () => {
    expect((await create({ name: 'Dup', slug: 'dup-slug' })).status).to.equal(201);
    const refused = await create({ name: 'Dup 2', slug: 'dup-slug' });
    expect(refused).to.deep.include({ status: 400, body: { error: 'slug dup-slug is already used by another monitor in this project' } });
    const first = await create({ name: 'Same Name' });
    const second = await create({ name: 'Same Name' });
    expect([first.body.monitor.slug, second.body.monitor.slug]).to.deep.equal(['same-name', 'same-name-2']);
    const otherProject = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Other' } })).body.project.id;
    const elsewhere = await vigil.request('POST', '/v1/monitors', { key, body: { project_id: otherProject, name: 'x', type: 'JOB_BASIC', schedule: 'x', slug: 'dup-slug' } });
    expect(elsewhere.status).to.equal(201);
  });

  it('updates only the fields sent, frees the old slug, and refuses a type change', async () => {
    const monitor = (await create({ name: 'Patchable', slug: 'patch-old' })).body.monitor;
    const patched = await vigil.request('PATCH', `/v1/monitors/${monitor.id}`, { key, body: { slug: 'patch-new', failure_tolerance: 3, tags: ['db'] } });
    expect(patched.status).to.equal(200);
    expect(patched.body.monitor).to.include({ slug: 'patch-new', failure_tolerance: 3, name: 'Patchable', schedule: '1h' });
    expect(patched.body.monitor.updated_at >= monitor.updated_at).to.equal(true);
    expect((await create({ name: 'Takes old slug', slug: 'patch-old' })).status).to.equal(201);
    const typeChange = await vigil.request('PATCH', `/v1/monitors/${monitor.id}`, { key, body: { type: 'JOB_CRON' } });
    expect(typeChange).to.deep.include({ status: 400, body: { error: 'type cannot be changed; create a new monitor instead' } });
    const bad = await vigil.request('PATCH', `/v1/monitors/${monitor.id}`, { key, body: { min_duration_seconds: 10, max_duration_seconds: 5 } });
    expect(bad.status).to.equal(400);
  });

  it('deletes a monitor with its streams and ping history; its id answers 404 after', async () => {
    const monitor = (await create({ name: 'Doomed' })).body.monitor;
    expect((await vigil.request('GET', `/v1/ping/${monitor.id}`)).status).to.equal(200);
    expect((await vigil.request('DELETE', `/v1/monitors/${monitor.id}`, { key })).status).to.equal(204);
    expect((await vigil.request('GET', `/v1/monitors/${monitor.id}`, { key })).status).to.equal(404);
    expect(await vigil.vigil.stores.events.readStream(`pings-${monitor.id}`)).to.deep.equal([]);
    expect(await vigil.vigil.stores.events.readStream(`monitor-${monitor.id}`)).to.deep.equal([]);
    expect(await vigil.vigil.stores.readModels.count('audit_events', { monitor_id: monitor.id, stream: `pings-${monitor.id}` })).to.equal(0);
    expect((await vigil.request('GET', `/v1/ping/${monitor.id}`)).status).to.equal(404);
    expect((await create({ name: 'Doomed again', slug: monitor.slug })).status).to.equal(201);
  });

  it('needs project_id with an account key and refuses a project the key cannot see', async () => {
    expect(await vigil.request('GET', '/v1/monitors', { key })).to.deep.include({ status: 400, body: { error: 'project_id is required with an account-scoped API key' } });
    const strangerKey = await vigil.accountKey(await vigil.user('monitor-stranger@example.com'), ALL_SCOPES);
    expect((await vigil.request('GET', `/v1/monitors?project_id=${projectId}`, { key: strangerKey })).status).to.equal(404);
    const monitor = (await create({ name: 'Private' })).body.monitor;
    expect((await vigil.request('GET', `/v1/monitors/${monitor.id}`, { key: strangerKey })).status).to.equal(404);
  });

  it('gates: MEMBER creates but cannot update or delete; READONLY only reads', async () => {
    const memberId = await vigil.user('monitor-member@example.com');
    const readerId = await vigil.user('monitor-reader@example.com');
    await vigil.member(projectId, memberId, 'MEMBER');
    await vigil.member(projectId, readerId, 'READONLY');
    const member = await vigil.accountKey(memberId, ['manage_monitors']);
    const reader = await vigil.accountKey(readerId, ['manage_monitors']);
    const made = await vigil.request('POST', '/v1/monitors', { key: member, body: { project_id: projectId, name: 'By member', type: 'JOB_BASIC', schedule: 'x' } });
    expect(made.status).to.equal(201);
    const id = made.body.monitor.id;
    expect((await vigil.request('PATCH', `/v1/monitors/${id}`, { key: member, body: { name: 'x' } })).status).to.equal(403);
    expect((await vigil.request('DELETE', `/v1/monitors/${id}`, { key: member })).status).to.equal(403);
    expect((await vigil.request('POST', '/v1/monitors', { key: reader, body: { project_id: projectId, name: 'x', type: 'JOB_BASIC', schedule: 'x' } })).status).to.equal(403);
    expect((await vigil.request('GET', `/v1/monitors/${id}`, { key: reader })).status).to.equal(200);
    const readOnlyKey = await vigil.accountKey(memberId, ['read']);
    const noScope = await vigil.request('POST', '/v1/monitors', { key: readOnlyKey, body: { project_id: projectId, name: 'x', type: 'JOB_BASIC', schedule: 'x' } });
    expect(noScope.body.code).to.equal('INSUFFICIENT_API_KEY_SCOPE');
  });
});
