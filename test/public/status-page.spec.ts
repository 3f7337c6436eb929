import { expect } from 'chai';
import { type Target, startTarget } from '../support/http-targets.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../support/test-vigil.js';

const XSS_NAME = '<img src=x onerror=alert(1)>';
const XSS_TITLE = '<script>alert("title")</script>';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * A fixed timeline on the test clock, from 2026-11-21 12:00 UTC to 2026-11-25 12:00 UTC:
 * - "Backup" (a job) is created and pings at once; fails on the 23rd at 06:00 for 14.4 min (1% of the day);
 * - "Site" (an HTTP monitor) is created on the 24th at 10:00 and checked four times, the second down;
 * - "Hidden job" is not chosen for the page; its incident and everything else about it stays private.
 */
describe('Public status page', () => {
  let vigil: TestVigil;
  let target: Target;
  let failing = false;
  let key: string;
  let projectId: string;
  let pingKey: string;
  let badgeKey: string;
  let backup: string;
  let site: string;
  let hidden: string;
  let pageId: string;
  const incidentIds: string[] = [];

  const ping = async (monitorId: string, suffix = '') => expect((await vigil.request('GET', `/v1/ping/${monitorId}${suffix}`)).status).to.equal(200);
  const publicGet = (path: string) => vigil.request('GET', path);

  before(async () => {
    vigil = await TestVigil.start({ clock: new TestClock(Date.parse('2026-11-21T12:00:00.000Z')) });
    target = await startTarget((_request, response) => {
      response.statusCode = failing ? 503 : 200;
      response.end(failing ? 'down' : 'ok');
    });
    const owner = await vigil.user('owner@example.com');
    key = await vigil.accountKey(owner, ALL_SCOPES);
    const project = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Acme internal' } })).body.project;
    projectId = project.id;
    pingKey = project.ping_key;
    badgeKey = (await vigil.request('GET', `/v1/projects/${projectId}/badge-key`, { key })).body.badge_key.key;
    const create = async (body: object) => (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, ...body } })).body.monitor.id as string;
    backup = await create({ name: XSS_NAME, slug: 'backup', type: 'JOB_BASIC', schedule: '1h' });
    hidden = await create({ name: 'Hidden job', slug: 'hidden', type: 'JOB_BASIC', schedule: '1h' });
    await ping(backup);
    await ping(hidden);
    await ping(hidden, '/fail');

    vigil.clock.advance(DAY + 18 * HOUR); // 2026-11-23 06:00
    await ping(backup, '/fail');
    vigil.clock.advance(DAY / 100); // 14.4 min: 1% of the day
    await ping(backup);

    vigil.clock.advance(DAY + 4 * HOUR - DAY / 100); // 2026-11-24 10:00
    site = await create({ name: 'Site', slug: 'site', type: 'UPTIME_HTTP', schedule: '1m', uptime_url: `${target.url}/` });
    for (let i = 0; i < 4; i += 1) {
      vigil.clock.advance(60_000);
      failing = i === 1;
      expect(await vigil.check()).to.equal(1);
    }
    failing = false;
    vigil.clock.advance(DAY + 2 * HOUR - 4 * 60_000); // 2026-11-25 12:00
    await vigil.settle();
    const incidents = await vigil.request('GET', `/v1/incidents?project_id=${projectId}`, { key });
    incidentIds.push(...incidents.body.data.map((i: { id: string }) => i.id));
    expect(incidentIds).to.have.length(3);

    const created = await vigil.request('POST', `/v1/projects/${projectId}/status-pages`, {
      key,
      body: { slug: 'acme', title: XSS_TITLE, description: 'Services of Acme', published: true, monitors: [{ monitor_id: backup }, { monitor_id: site, display_name: 'Website' }] },
    });
    expect(created.status, created.text).to.equal(201);
    pageId = created.body.status_page.id;
  });
  after(async () => {
    await target.close();
    await vigil.stop();
  });

  const bars = (html: string, name: string) => {
    const block = html.split('<li class="status-monitor">').find((b) => b.includes(`>${name}</h3>`));
    expect(block, name).to.exist;
    return [...block!.matchAll(/<a class="status-bar bar-(\w+)" href="([^"]+)" aria-label="([^"]+)"/g)].map((m) => ({ state: m[1]!, href: m[2]!, label: m[3]! }));
  };

  it('shows 90 daily bars per monitor with their labels, "no data" before the monitor existed', async () => {
    const page = await publicGet('/status/acme');
    expect(page.status).to.equal(200);
    const job = bars(page.text, '&lt;img src=x onerror=alert(1)&gt;');
    expect(job).to.have.length(90);
    expect(job[0]).to.deep.equal({ state: 'none', href: '/status/acme/day/2026-08-28', label: '2026-08-28: no data' });
    expect(job.slice(-6).map((b) => `${b.state} ${b.label}`)).to.deep.equal([
      'none 2026-11-20: no data',
      'up 2026-11-21: 100% up, no incidents',
      'up 2026-11-22: 100% up, no incidents',
      'degraded 2026-11-23: 99% up, 1 incident',
      'up 2026-11-24: 100% up, no incidents',
      'up 2026-11-25: 100% up, no incidents',
    ]);
    const website = bars(page.text, 'Website');
    expect(website).to.have.length(90);
    expect(website.slice(-3).map((b) => `${b.state} ${b.label}`)).to.deep.equal([
      'none 2026-11-23: no data',
      'down 2026-11-24: 75% up, 1 incident',
      'none 2026-11-25: no data',
    ]);
    expect(page.text).to.contain('All systems operational');
    expect(page.text).to.contain('99.75% uptime'); // 14.4 min down in the 4 days since it was created
    expect(page.text).to.contain('75% uptime');
  });

  it('shows only the chosen monitors, and nothing private: no ids, keys, causes, emails or other monitors', async () => {
    const page = await publicGet('/status/acme');
    for (const secret of [projectId, backup, site, hidden, pageId, pingKey, badgeKey, 'owner@example.com', 'Acme internal', 'Hidden job', ...incidentIds, target.url, '503', '/v1/']) {
      expect(page.text, secret).to.not.contain(secret);
    }
    expect(page.text).to.contain('Website');
    expect(page.text).to.not.contain('>Site<');
  });

  it('renders a hostile monitor name and page title as text', async () => {
    const page = await publicGet('/status/acme');
    expect(page.text).to.not.contain(XSS_NAME);
    expect(page.text).to.not.contain(XSS_TITLE);
    expect(page.text).to.contain('<title>&lt;script&gt;alert(&quot;title&quot;)&lt;/script&gt;</title>');
    expect(page.text).to.contain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('is served with a strict CSP, no script and no cookie', async () => {
    const page = await publicGet('/status/acme');
    expect(page.headers.get('content-security-policy')).to.equal("default-src 'none'; style-src 'self'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
    expect(page.headers.get('set-cookie')).to.equal(null);
    expect(page.text).to.not.match(/<script/i);
  });

  it('lists past incidents with their public notes only, never internal ones or who wrote them', async () => {
    const [backupIncident] = (await vigil.request('GET', `/v1/monitors/${backup}/incidents`, { key })).body.data;
    // The incident is resolved by now: what is written about it are postmortems, one public, one internal.
    const postmortem = async (visibility: 'public' | 'internal', text: string) =>
      expect((await vigil.request('POST', `/v1/incidents/${backupIncident.id}/notes`, { key, body: { kind: 'postmortem', visibility, text } })).status).to.equal(201);
    await postmortem('public', 'We restored the <b>backup</b> volume.');
    await postmortem('internal', 'root password is hunter2');
    await postmortem('public', 'A full disk stopped the backup.');

    const page = await publicGet('/status/acme');
    expect(page.text).to.contain('Past incidents');
    expect(page.text).to.contain('We restored the &lt;b&gt;backup&lt;/b&gt; volume.');
    expect(page.text).to.contain('A full disk stopped the backup.');
    expect(page.text).to.contain('Postmortem');
    expect(page.text).to.not.contain('hunter2');
    expect(page.text).to.not.contain('author@example.com');
    expect(page.text).to.not.contain(backupIncident.id);

    const day = await publicGet('/status/acme/day/2026-11-23');
    expect(day.status).to.equal(200);
    expect(day.text).to.contain('Monday, 23 November 2026');
    expect(day.text).to.contain('A full disk stopped the backup.');
    expect(day.text).to.contain('99% up, 1 incident');
    expect(day.text).to.not.contain('hunter2');
    expect((await publicGet('/status/acme/day/2026-11-22')).text).to.contain('No incidents on this day.');
  });

  it('shows an open incident first, under a partial outage banner', async () => {
    await ping(backup, '/fail');
    await vigil.settle();
    const page = await publicGet('/status/acme');
    expect(page.text).to.contain('Partial outage');
    expect(page.text.indexOf('Ongoing incidents')).to.be.lessThan(page.text.indexOf('Past incidents'));
    expect(page.text).to.match(/class="state state-down">Down</);
    await ping(backup);
    await vigil.settle();
  });

  it('reads a page view in a fixed number of queries, however many monitors it shows', async () => {
    const readModels = vigil.vigil.stores.readModels;
    const count = async (path: string) => {
      let queries = 0;
      const find = readModels.find.bind(readModels);
      const get = readModels.get.bind(readModels);
      readModels.find = (async (...args: Parameters<typeof find>) => ((queries += 1), find(...args)));
      readModels.get = (async (...args: Parameters<typeof get>) => ((queries += 1), get(...args)));
      try {
        expect((await publicGet(path)).status).to.equal(200);
      } finally {
        readModels.find = find;
        readModels.get = get;
      }
      return queries;
    };
    const two = await count('/status/acme');
    const many: string[] = [];
    for (let i = 0; i < 8; i += 1) {
      many.push((await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: `Job ${i}`, type: 'JOB_BASIC', schedule: '1h' } })).body.monitor.id);
    }
    const ten = (await vigil.request('POST', `/v1/projects/${projectId}/status-pages`, {
      key, body: { slug: 'ten', title: 'Ten', published: true, monitors: [backup, site, ...many].map((monitor_id) => ({ monitor_id })) },
    })).body.status_page;
    expect(ten.monitors).to.have.length(10);
    const tenQueries = await count('/status/ten');
    expect(two).to.be.greaterThan(0);
    expect(tenQueries).to.equal(two);
    expect(tenQueries).to.be.at.most(8);
  });

  it('answers 404 for an unpublished page, an unknown slug and a day outside the 90, all alike', async () => {
    const unpublish = await vigil.request('PATCH', `/v1/status-pages/${pageId}`, { key, body: { published: false } });
    expect(unpublish.status).to.equal(200);
    const answers = await Promise.all(['/status/acme', '/status/acme/day/2026-11-23', '/status/nothing-here', '/status/ten/day/2026-08-27', '/status/ten/day/2026-11-26', '/status/ten/day/yesterday', '/status/UPPER'].map(publicGet));
    for (const answer of answers) {
      expect(answer.status).to.equal(404);
      expect(answer.text).to.equal(answers[0]!.text);
      expect(answer.text).to.not.contain('acme');
    }
    expect((await vigil.request('PATCH', `/v1/status-pages/${pageId}`, { key, body: { published: true } })).status).to.equal(200);
    expect((await publicGet('/status/acme')).status).to.equal(200);
  });
});
