import { expect } from 'chai';
import { ALL_SCOPES, TestClock, TestVigil } from '../support/test-vigil.js';

describe('Public status page maintenance', () => {
  let vigil: TestVigil;
  let key: string;
  let projectId: string;
  let shown: string;
  let hidden: string;

  before(async () => {
    // Saturday 2026-11-21 12:00 UTC.
    vigil = await TestVigil.start({ clock: new TestClock(Date.parse('2026-11-21T12:00:00.000Z')) });
    key = await vigil.accountKey(await vigil.user('owner@example.com'), ALL_SCOPES);
    projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Acme' } })).body.project.id;
    const create = async (name: string) => (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name, type: 'JOB_BASIC', schedule: 'x' } })).body.monitor.id as string;
    shown = await create('Shop');
    hidden = await create('Back office');
    const page = await vigil.request('POST', `/v1/projects/${projectId}/status-pages`, { key, body: { slug: 'acme', title: 'Acme', published: true, monitors: [{ monitor_id: shown }] } });
    expect(page.status, page.text).to.equal(201);
  });
  after(() => vigil.stop());

  const schedule = async (body: Record<string, unknown>) => {
    const created = await vigil.request('POST', `/v1/projects/${projectId}/maintenance-windows`, { key, body });
    expect(created.status, created.text).to.equal(201);
  };

  it('lists the windows under way and ahead that cover a shown monitor, by name and times only, escaped', async () => {
    expect((await vigil.request('GET', '/status/acme')).text).to.not.contain('Scheduled maintenance');
    await schedule({ name: 'Database <script>alert(1)</script> upgrade', monitor_ids: [shown], duration_seconds: 3600 });
    await schedule({ name: 'Weekly patching', rrule: 'RRULE:FREQ=WEEKLY;BYDAY=SU;BYHOUR=2;BYMINUTE=0', timezone: 'Europe/Paris', duration_seconds: 7200 });
    await schedule({ name: 'Back office move', monitor_ids: [hidden], duration_seconds: 3600 });
    await schedule({ name: 'Next year', monitor_ids: [shown], starts_at: '2027-01-10T00:00:00Z', ends_at: '2027-01-10T01:00:00Z' });

    const html = (await vigil.request('GET', '/status/acme')).text;
    const section = html.slice(html.indexOf('Scheduled maintenance'), html.indexOf('monitors-heading'));
    expect(section).to.contain('<strong>Database &lt;script&gt;alert(1)&lt;/script&gt; upgrade</strong>: under way, until <time datetime="2026-11-21T13:00:00.000Z">');
    // Sunday 02:00 in Paris is 01:00 UTC in November.
    expect(section).to.contain('<strong>Weekly patching</strong>: <time datetime="2026-11-22T01:00:00.000Z">');
    expect(section).to.contain('<time datetime="2026-11-22T03:00:00.000Z">');
    expect(html).to.not.contain('Back office');
    expect(html).to.not.contain('Next year');
    expect(html).to.not.contain('<script>alert(1)');
    expect(html).to.not.contain(hidden);
  });
});
