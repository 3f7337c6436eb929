import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

const XSS = '<script>alert(1)</script>';

describe('Badges', () => {
  let vigil: TestVigil;
  let key: string;
  let projectId: string;
  let badgeKey: string;
  const ids: Record<string, string> = {};

  const monitor = async (name: string, slug: string, fields: object) => {
    const response = await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name, slug, ...fields } });
    expect(response.status, response.text).to.equal(201);
    ids[slug] = response.body.monitor.id;
  };
  const ping = async (slug: string, suffix = '') => expect((await vigil.request('GET', `/v1/ping/${ids[slug]}${suffix}`)).status).to.equal(200);
  const badge = (path: string) => vigil.request('GET', path);

  before(async () => {
    vigil = await TestVigil.start();
    const owner = await vigil.user('owner@example.com');
    key = await vigil.accountKey(owner, ALL_SCOPES);
    projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Shop' } })).body.project.id;
    badgeKey = (await vigil.request('GET', `/v1/projects/${projectId}/badge-key`, { key })).body.badge_key.key;

    await monitor('Backup', 'backup', { type: 'JOB_BASIC', schedule: '1h' });
    await monitor('Never pinged', 'fresh', { type: 'JOB_BASIC', schedule: '1h' });
    await monitor('Old sync', 'paused', { type: 'JOB_BASIC', schedule: '1h' });
    await monitor('Importer', 'broken', { type: 'JOB_BASIC', schedule: '1h' });
    await monitor('Hourly', 'hourly', { type: 'JOB_HEARTBEAT', schedule: '1h', grace_period_seconds: 3600 });
    await monitor(XSS, 'hostile', { type: 'JOB_BASIC', schedule: '1h' });
    await ping('backup');
    await ping('hostile');
    await ping('paused');
    expect((await vigil.request('POST', `/v1/monitors/${ids['paused']}/pause`, { key })).status).to.equal(200);
    await ping('broken', '/fail');
    await ping('hourly');
    // Past its expected check-in, within its grace period: late, not yet missed.
    vigil.clock.advance(61 * 60_000);
    await vigil.settle();
  });
  after(() => vigil.stop());

  for (const [slug, message, color] of [
    ['backup', 'up', 'brightgreen'],
    ['fresh', 'new', 'blue'],
    ['paused', 'paused', 'lightgrey'],
    ['broken', 'down', 'red'],
    ['hourly', 'late', 'orange'],
  ] as const) {
    it(`shows a monitor that is ${message} as "${message}" in ${color}, as SVG and as shields.io endpoint JSON`, async () => {
      const svg = await badge(`/badge/${badgeKey}/${slug}.svg`);
      expect(svg.status).to.equal(200);
      expect(svg.headers.get('content-type')).to.match(/^image\/svg\+xml/);
      expect(svg.headers.get('cache-control')).to.equal('public, max-age=60');
      expect(svg.text).to.match(/^<svg /);
      expect(svg.text).to.contain(`<title>`);
      expect(svg.text).to.contain(`: ${message}</title>`);
      const json = await badge(`/badge/${badgeKey}/${slug}.json`);
      expect(json.status).to.equal(200);
      expect(json.headers.get('access-control-allow-origin')).to.equal('*');
      expect(json.body).to.deep.equal({ schemaVersion: 1, label: json.body.label, message, color });
      expect(Object.keys(json.body)).to.deep.equal(['schemaVersion', 'label', 'message', 'color']);
    });
  }

  it("labels a monitor's badge with its name, escaped in the SVG", async () => {
    expect((await badge(`/badge/${badgeKey}/backup.json`)).body.label).to.equal('Backup');
    const svg = await badge(`/badge/${badgeKey}/hostile.svg`);
    expect(svg.text).to.not.contain('<script>');
    expect(svg.text).to.contain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it("shows the project's badge as the worst of its monitors", async () => {
    const svg = await badge(`/badge/${badgeKey}.svg`);
    expect(svg.status).to.equal(200);
    expect(svg.text).to.contain('<title>Shop: down</title>');
    expect((await vigil.request('POST', `/v1/monitors/${ids['broken']}/pause`, { key })).status).to.equal(200);
    expect((await badge(`/badge/${badgeKey}.svg`)).text).to.contain('<title>Shop: late</title>');
    await ping('hourly');
    await vigil.settle();
    expect((await badge(`/badge/${badgeKey}.svg`)).text).to.contain('<title>Shop: up</title>');
  });

  it('answers an unknown key, a malformed one or an unknown slug with the same bare 404, whether the project exists or not', async () => {
    const answers = await Promise.all([
      badge(`/badge/${'A'.repeat(22)}.svg`),
      badge(`/badge/${'A'.repeat(22)}/backup.svg`),
      badge(`/badge/${'A'.repeat(22)}/backup.json`),
      badge(`/badge/${badgeKey}/nothing-here.svg`),
      badge(`/badge/${badgeKey}/nothing-here.json`),
      badge('/badge/short.svg'),
      badge(`/badge/${projectId}.svg`),
      badge(`/badge/${badgeKey}/backup.png`),
      badge(`/badge/${badgeKey}/${ids['backup']}.svg`),
    ]);
    for (const answer of answers) {
      expect(answer.status).to.equal(404);
      expect(answer.headers.get('content-type')).to.equal('application/json; charset=utf-8');
      expect(answer.text).to.equal('{"error":"not found"}');
    }
  });

  it('rotates the key: the old URLs answer 404, the new ones the badge', async () => {
    const rotated = await vigil.request('POST', `/v1/projects/${projectId}/badge-key`, { key });
    expect(rotated.status, rotated.text).to.equal(200);
    const fresh = rotated.body.badge_key;
    expect(fresh.key).to.not.equal(badgeKey);
    expect(fresh.project_badge_path).to.equal(`/badge/${fresh.key}.svg`);
    expect((await badge(`/badge/${badgeKey}.svg`)).status).to.equal(404);
    expect((await badge(`/badge/${badgeKey}/backup.json`)).status).to.equal(404);
    expect((await badge(`/badge/${fresh.key}/backup.json`)).body.message).to.equal('up');
    expect((await vigil.request('GET', `/v1/projects/${projectId}/badge-key`, { key })).body.badge_key.key).to.equal(fresh.key);
    badgeKey = fresh.key;
  });

  it('keeps the badge key out of the project history, as the ping key', async () => {
    const history = await vigil.request('GET', `/v1/projects/${projectId}/events?type=ProjectBadgeKeyIssued`, { key });
    expect(history.status).to.equal(200);
    expect(history.body.data.length).to.be.greaterThan(0);
    expect(history.text).to.not.contain(badgeKey);
  });

  it('issues a key on request to a project from before badges, which has none', async () => {
    const owner = await vigil.user('old@example.com');
    const oldKey = await vigil.accountKey(owner, ALL_SCOPES);
    const oldProject = randomUUID();
    const at = vigil.clock.now().toISOString();
    await vigil.vigil.stores.events.appendToStream(`project-${oldProject}`, [
      { type: 'ProjectCreated', data: { project_id: oldProject, name: 'Legacy', description: '', owner_id: owner, ping_key: 'p'.repeat(22), created_at: at }, metadata: {} },
      { type: 'ProjectMemberAdded', data: { project_id: oldProject, member_id: randomUUID(), user_id: owner, role: 'OWNER', joined_at: at }, metadata: {} },
    ], { expectedRevision: 'no_stream' });
    await vigil.settle();
    expect((await vigil.request('GET', `/v1/projects/${oldProject}/badge-key`, { key: oldKey })).status).to.equal(404);
    const issued = await vigil.request('POST', `/v1/projects/${oldProject}/badge-key`, { key: oldKey });
    expect(issued.status, issued.text).to.equal(200);
    const svg = await badge(`/badge/${issued.body.badge_key.key}.svg`);
    expect(svg.text).to.contain('<title>Legacy: no monitors</title>');
  });

  it('refuses to rotate the key for a READONLY member (403)', async () => {
    const reader = await vigil.user('reader@example.com');
    await vigil.member(projectId, reader, 'READONLY');
    const readerKey = await vigil.accountKey(reader, ALL_SCOPES);
    expect((await vigil.request('POST', `/v1/projects/${projectId}/badge-key`, { key: readerKey })).status).to.equal(403);
    expect((await vigil.request('GET', `/v1/projects/${projectId}/badge-key`, { key: readerKey })).status).to.equal(200);
  });

  it("counts a badge URL that names nothing against the client's address as a wrong key does, so a key's slugs cannot be guessed in bulk", async () => {
    vigil.clock.advance(60_000);
    const statuses: number[] = [];
    for (const slug of ['admin', 'payroll', 'db-backup', 'vpn', 'ldap-sync', 'billing', 'deploy', 'cron', 'mail', 'etl', 'reports', 'sso', 'api', 'web', 'queue', 'cache', 'dns', 'ci', 'nightly', 'export', 'import']) {
      statuses.push((await badge(`/badge/${badgeKey}/${slug}.json`)).status);
    }
    expect(statuses).to.deep.equal([...Array<number>(20).fill(404), 429]);
    const throttled = await badge(`/badge/${'A'.repeat(22)}.svg`);
    expect(throttled.status).to.equal(429);
    expect(throttled.headers.get('retry-after')).to.equal('60');
    expect(throttled.headers.get('cache-control')).to.equal('no-store');
    expect(throttled.body.error).to.match(/^too many failed authentications from this address/);
    // A badge that names its monitor still answers, and a wrong API key from the address is one too many as well.
    expect((await badge(`/badge/${badgeKey}/backup.json`)).body.message).to.equal('up');
    expect((await vigil.request('GET', '/v1/projects', { key: 'vgl_live_AAAAAAAAAAAAAAAAAAAAAAAAAA' })).status).to.equal(429);
    vigil.clock.advance(60_000);
  });
});
