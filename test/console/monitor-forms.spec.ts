import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { chromiumUnavailable } from '../support/chromium.js';
import { ConsoleBrowser } from '../support/console-browser.js';
import { type SeenRequest, type Target, startTarget } from '../support/http-targets.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

describe('Creating, editing and deleting monitors in the console, in a real browser', function () {
  this.timeout(180_000);
  let vigil: TestVigil;
  let browser: ConsoleBrowser | undefined;
  let shop: Target | undefined;
  const checked: SeenRequest[] = [];
  const seed = {} as { ownerKey: string; viewerKey: string; project: string; group: string; cron: string };

  before(async function () {
    const unavailable = chromiumUnavailable();
    if (unavailable) {
      console.log(`      [skipped] the console monitor form browser tests: ${unavailable}`);
      this.skip();
    }
    vigil = await TestVigil.start();
    seed.ownerKey = await vigil.accountKey(await vigil.user('owner@example.com'), ALL_SCOPES);
    const viewer = await vigil.user('viewer@example.com');
    seed.project = (await vigil.request('POST', '/v1/projects', { key: seed.ownerKey, body: { name: 'Backups' } })).body.project.id;
    expect((await vigil.request('POST', `/v1/projects/${seed.project}/members`, { key: seed.ownerKey, body: { user_id: viewer, role: 'READONLY' } })).status).to.equal(201);
    // Every scope, but a READONLY role: the role is what forbids.
    seed.viewerKey = await vigil.accountKey(viewer, ALL_SCOPES);
    const group = await vigil.request('POST', '/v1/notification-groups', { key: seed.ownerKey, body: { project_id: seed.project, name: 'On call <b>ops</b>' } });
    expect(group.status).to.equal(201);
    seed.group = group.body.group.id;
    shop = await startTarget((request, response) => {
      checked.push(request);
      response.statusCode = 204;
      response.end();
    });
    browser = await ConsoleBrowser.launch(vigil.url, 'console-monitor-forms');
  });

  after(async () => {
    await browser?.close();
    await shop?.close();
    await vigil?.stop();
  });

  /** Nothing wider than the window: no sideways scrolling. */
  const fitsWidth = async (page: Page) => {
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    // Which elements reach past the window, for the failure message.
    const wide = overflow > 0
      ? await page.evaluate<string[]>(`[...document.querySelectorAll('main *')].filter((e) => e.getBoundingClientRect().right > window.innerWidth).slice(0, 5).map((e) => e.tagName + '#' + e.id + '.' + e.className)`)
      : [];
    expect(overflow, `${page.url()} ${wide.join(', ')}`).to.be.at.most(0);
  };
  const previewTimes = (page: Page) => page.locator('#schedule-preview time').evaluateAll((times) => times.map((t) => t.getAttribute('datetime')));

  it('creates a cron job from the empty dashboard, the preview following the schedule and the zone as they are typed', async () => {
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.ownerKey, `/projects/${seed.project}`);
    expect(await page.locator('.empty').innerText()).to.contain('Create the first one');
    await browser!.accessible(page);
    await browser!.shoot(page, 'dashboard-empty', false);
    await page.locator('.empty').getByRole('link', { name: 'Create the first one' }).click();
    await page.waitForURL(`${vigil.url}/projects/${seed.project}/monitors/new`);
    expect(await page.getByLabel('Cron job').isChecked()).to.equal(true);
    // The cron job's fields only: no URL, no TCP host.
    expect(await page.getByLabel('Cron expression or calendar rule').isVisible()).to.equal(true);
    expect(await page.getByLabel('URL', { exact: true }).isVisible()).to.equal(false);
    expect(await page.getByLabel('Port', { exact: true }).isVisible()).to.equal(false);
    await browser!.accessible(page);

    await page.getByLabel('Name', { exact: true }).fill('Nightly <b>backup</b>');
    const cron = page.getByLabel('Cron expression or calendar rule');
    await cron.fill('');
    await cron.pressSequentially('61 4 * * *');
    await page.locator('#schedule-preview', { hasText: 'cron minute values must be 0 to 59, got 61' }).waitFor();
    expect(await page.locator('#schedule-preview').innerText()).to.contain('Not a schedule Vigil can keep');
    await cron.fill('');
    await cron.pressSequentially('30 4 * * *');
    await page.locator('#schedule-preview li').first().waitFor();
    // The test clock says 2026-11-21T12:00Z: 04:30 UTC from tomorrow on.
    expect(await previewTimes(page)).to.deep.equal(['2026-11-22T04:30:00.000Z', '2026-11-23T04:30:00.000Z', '2026-11-24T04:30:00.000Z', '2026-11-25T04:30:00.000Z', '2026-11-26T04:30:00.000Z']);
    const zone = page.getByLabel('Time zone');
    await zone.fill('');
    await zone.pressSequentially('Europe/Paris');
    await page.locator('#schedule-preview', { hasText: 'in Europe/Paris' }).waitFor();
    await page.locator('#schedule-preview li:first-child time[datetime="2026-11-22T03:30:00.000Z"]').waitFor();
    expect(await previewTimes(page)).to.have.length(5);
    expect(await page.locator('#schedule-preview li').first().innerText()).to.equal('Sun, 22 Nov 2026, 04:30 CET');
    await browser!.shoot(page, 'new-cron-preview');

    await page.getByLabel('Grace period').fill('20m');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.locator('.notice', { hasText: 'Monitor created.' }).waitFor();
    expect(new URL(page.url()).pathname).to.match(/^\/monitors\/[0-9a-f-]{36}$/);
    seed.cron = new URL(page.url()).pathname.split('/')[2]!;
    expect(await page.locator('h1').innerText()).to.contain('Nightly <b>backup</b>');
    expect(await page.locator('#config + dl').innerText()).to.contain('Cron 30 4 * * * in Europe/Paris, 20 min grace');
    const api = (await vigil.request('GET', `/v1/monitors/${seed.cron}`, { key: seed.ownerKey })).body.monitor;
    expect(api).to.include({ name: 'Nightly <b>backup</b>', type: 'JOB_CRON', schedule: '30 4 * * *', timezone: 'Europe/Paris', grace_period_seconds: 1200, slug: 'nightly-b-backup-b' });
    await browser!.shoot(page, 'created-cron');
    await context.close();
  });

  it('creates an HTTP uptime monitor, showing only its fields', async () => {
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.ownerKey, `/projects/${seed.project}`);
    await page.getByRole('link', { name: 'New monitor' }).click();
    await page.getByLabel('HTTP uptime').check();
    for (const label of ['URL', 'Method', 'Expected status codes', 'Check every', 'Failures before DOWN']) expect(await page.getByLabel(label, { exact: true }).isVisible(), label).to.equal(true);
    for (const label of ['Cron expression or calendar rule', 'Expected every', 'Grace period', 'Host', 'Host name', 'Shortest normal run', 'Pings kept']) {
      expect(await page.getByLabel(label, { exact: true }).isVisible(), label).to.equal(false);
    }
    await page.getByLabel('Name', { exact: true }).fill('Shop front');
    await page.getByLabel('URL', { exact: true }).fill(`${shop!.url}/health`);
    await page.getByLabel('Expected status codes').fill('200, 204');
    await page.getByLabel('Check every').fill('1m');
    // The less used settings are folded away until asked for.
    expect(await page.getByLabel('Request headers').isVisible()).to.equal(false);
    await page.getByText('Headers, body, timeout, TLS and JSON checks').click();
    await page.getByLabel('Request headers').fill('Authorization: Bearer s3cret\nX-Probe: vigil');
    await page.locator('#schedule-preview li:first-child time[datetime="2026-11-21T12:01:00.000Z"]').waitFor();
    expect(await page.locator('#schedule-preview').innerText()).to.contain('it would check at these times');
    expect(await previewTimes(page)).to.have.length(5);
    await browser!.accessible(page);
    await browser!.shoot(page, 'new-http');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.locator('.notice', { hasText: 'Monitor created.' }).waitFor();
    expect(await page.locator('.lede').innerText()).to.contain(`GET ${shop!.url}/health every 1 min, expecting 200, 204`);
    const id = new URL(page.url()).pathname.split('/')[2]!;
    const api = (await vigil.request('GET', `/v1/monitors/${id}`, { key: seed.ownerKey })).body.monitor;
    expect(api).to.include({ type: 'UPTIME_HTTP', schedule: '1m', uptime_url: `${shop!.url}/health` });
    expect(api.uptime_expected_status).to.deep.equal([200, 204]);
    expect(api.uptime_headers).to.deep.equal({ Authorization: '••••••', 'X-Probe': '••••••' });

    // Edited, the header values stay masked and kept; the page never holds them.
    await page.getByRole('link', { name: 'Edit' }).click();
    expect(await page.getByLabel('Request headers').isVisible()).to.equal(true);
    expect(await page.getByLabel('Request headers').inputValue()).to.equal('Authorization: ••••••\nX-Probe: ••••••');
    expect(await page.content()).to.not.contain('s3cret');
    await page.getByLabel('Timeout (seconds)', { exact: true }).first().fill('5');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('.notice', { hasText: 'Changes saved.' }).waitFor();
    const edited = (await vigil.request('GET', `/v1/monitors/${id}`, { key: seed.ownerKey })).body.monitor;
    expect(edited).to.include({ uptime_timeout_ms: 5000 });
    expect(edited.uptime_headers).to.deep.equal({ Authorization: '••••••', 'X-Probe': '••••••' });
    // The check sends the values typed at creation: saving the masks kept them.
    vigil.clock.advance(61_000);
    expect(await vigil.check()).to.be.greaterThan(0);
    const probe = checked.find((r) => r.url === '/health');
    expect(probe?.headers['authorization']).to.equal('Bearer s3cret');
    expect(probe?.headers['x-probe']).to.equal('vigil');
    await context.close();
  });

  it('edits a monitor: every field filled in, the grace changed and a group ticked, the page showing the change', async () => {
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.ownerKey, `/monitors/${seed.cron}`);
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL(`${vigil.url}/monitors/${seed.cron}/edit`);
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).to.equal('Nightly <b>backup</b>');
    expect(await page.getByLabel('Cron expression or calendar rule').inputValue()).to.equal('30 4 * * *');
    expect(await page.getByLabel('Time zone').inputValue()).to.equal('Europe/Paris');
    expect(await page.getByLabel('Grace period').inputValue()).to.equal('20m');
    expect(await page.locator('.fixed-type').innerText()).to.contain('Cron job');
    expect(await previewTimes(page)).to.have.length(5);
    await browser!.accessible(page);
    await page.getByLabel('Grace period').fill('45m');
    await page.getByLabel('On call <b>ops</b>').check();
    await page.getByLabel('Tags').fill('nightly, storage');
    await browser!.shoot(page, 'edit');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('.notice', { hasText: 'Changes saved.' }).waitFor();
    const facts = await page.locator('#config + dl').innerText();
    expect(facts).to.contain('45 min grace');
    expect(facts).to.contain('nightly, storage');
    expect(facts).to.contain('Pages\nOn call <b>ops</b> (group)');
    const api = (await vigil.request('GET', `/v1/monitors/${seed.cron}`, { key: seed.ownerKey })).body.monitor;
    expect(api).to.include({ grace_period_seconds: 2700, schedule: '30 4 * * *', timezone: 'Europe/Paris' });
    expect(api.notification_group_ids).to.deep.equal([seed.group]);
    expect(api.tags).to.deep.equal(['nightly', 'storage']);

    // The form offers no change of type; one forged is refused, as PATCH refuses it.
    const token = await page.locator('input[name="csrf_token"]').first().inputValue();
    const forged = await context.request.post(`${vigil.url}/monitors/${seed.cron}/edit`, {
      form: { csrf_token: token, type: 'UPTIME_HTTP', name: 'Nightly', cron_schedule: '30 4 * * *', timezone: 'UTC', grace: '5m', missed_before_down: '1', failures_before_down: '1', surge: '10', retention: '200', http_url: 'https://example.com', check_every: '1m' },
      maxRedirects: 0,
    });
    expect(forged.status()).to.equal(400);
    expect(await forged.text()).to.contain('Type cannot be changed; create a new monitor instead');
    expect((await vigil.request('GET', `/v1/monitors/${seed.cron}`, { key: seed.ownerKey })).body.monitor).to.include({ type: 'JOB_CRON', name: 'Nightly <b>backup</b>' });
    await context.close();
  });

  it('refuses bad input with a 400, naming the field as the form labels it and keeping what was typed', async () => {
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.ownerKey, `/projects/${seed.project}/monitors/new`);
    await page.getByLabel('Heartbeat').check();
    await page.getByLabel('Name', { exact: true }).fill('Disk <check>');
    await page.getByLabel('Expected every').fill('often');
    await page.getByLabel('Description').fill('Pings from\nthe NAS');
    const [refused] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.getByRole('button', { name: 'Create monitor' }).click()]);
    expect(refused.status()).to.equal(400);
    await page.locator('.error-summary').waitFor();
    const summary = await page.locator('.error-summary').innerText();
    expect(summary).to.contain('Expected every must be an interval such as 30s, 5m, 1h, 2d or 1w (from 1s to 365d) for Heartbeat monitors');
    expect(summary).to.not.match(/schedule|JOB_HEARTBEAT/);
    expect(await page.evaluate<string>('document.activeElement?.className ?? ""')).to.equal('error-summary');
    expect(await page.getByLabel('Heartbeat').isChecked()).to.equal(true);
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).to.equal('Disk <check>');
    expect(await page.getByLabel('Expected every').inputValue()).to.equal('often');
    expect(await page.getByLabel('Expected every').getAttribute('aria-invalid')).to.equal('true');
    expect(await page.getByLabel('Description').inputValue()).to.equal('Pings from\nthe NAS');
    expect(await page.getByLabel('Cron expression or calendar rule').isVisible()).to.equal(false);
    await browser!.accessible(page);
    await browser!.shoot(page, 'refused');
    // The summary's link leads to the field.
    await page.locator('.error-summary a').click();
    expect(await page.evaluate<string>('location.hash')).to.equal('#f-heartbeat-every');

    await page.getByLabel('Expected every').fill('10m');
    await page.getByLabel('Grace period').fill('soon');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.locator('.error-summary', { hasText: 'Grace period must be a duration such as 90s, 5m, 2h or 1d (0 for none), not "soon"' }).waitFor();
    expect(await page.getByLabel('Expected every').inputValue()).to.equal('10m');
    await page.getByLabel('Grace period').fill('2m');
    await page.getByLabel('Alerts in a row before paging pauses').fill('0');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.locator('.error-summary', { hasText: 'Alerts in a row before paging pauses must be an integer from 1 to 1000' }).waitFor();
    const monitors = (await vigil.request('GET', `/v1/monitors?project_id=${seed.project}`, { key: seed.ownerKey })).body.monitors;
    expect(monitors.map((m: { name: string }) => m.name)).to.not.include('Disk <check>');
    await context.close();
  });

  it('fills and submits the form with the keyboard alone', async () => {
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.ownerKey, `/projects/${seed.project}/monitors/new`);
    const tabTo = async (name: string) => {
      for (let i = 0; i < 120; i += 1) {
        await page.keyboard.press('Tab');
        if ((await page.evaluate<string>('document.activeElement?.name ?? ""')) === name) return;
      }
      throw new Error(`Tab never reached ${name}`);
    };
    await tabTo('type');
    // The cron job is chosen; the arrow keys move along the radios to the heartbeat.
    await page.keyboard.press('ArrowDown');
    expect(await page.getByLabel('Heartbeat').isChecked()).to.equal(true);
    await tabTo('name');
    await page.keyboard.type('Keyboard heartbeat');
    await tabTo('heartbeat_every');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('15m');
    await page.keyboard.press('Enter');
    await page.locator('.notice', { hasText: 'Monitor created.' }).waitFor();
    expect(await page.locator('.lede').innerText()).to.contain('A ping every 15 min');
    await context.close();
  });

  it('deletes a monitor only after a confirmation that says what is lost: cancel keeps it, confirm removes it', async () => {
    const created = await vigil.request('POST', '/v1/monitors', { key: seed.ownerKey, body: { project_id: seed.project, name: 'Old <i>export</i>', type: 'JOB_BASIC', schedule: 'x' } });
    const id = created.body.monitor.id;
    expect((await vigil.request('GET', `/v1/ping/${id}`)).status).to.equal(200);
    expect((await vigil.request('GET', `/v1/ping/${id}/fail`)).status).to.equal(200);
    await vigil.settle();
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.ownerKey, `/monitors/${id}`);
    await page.getByRole('link', { name: 'Delete…' }).click();
    await page.waitForURL(`${vigil.url}/monitors/${id}/delete`);
    const panel = await page.locator('.delete-panel').innerText();
    expect(panel).to.contain('Delete Old <i>export</i>?');
    expect(panel).to.contain('Its 2 stored pings');
    expect(panel).to.contain('Its incident, archived with its timeline');
    expect(panel).to.contain('1 open incident is resolved in your name first');
    await browser!.accessible(page);
    await browser!.shoot(page, 'delete-confirm');
    await page.getByRole('link', { name: 'Cancel, keep it' }).click();
    await page.waitForURL(`${vigil.url}/monitors/${id}`);
    expect((await vigil.request('GET', `/v1/monitors/${id}`, { key: seed.ownerKey })).status).to.equal(200);

    await page.getByRole('link', { name: 'Delete…' }).click();
    await page.getByRole('button', { name: 'Delete Old <i>export</i>' }).click();
    await page.locator('.notice', { hasText: 'Monitor deleted.' }).waitFor();
    expect(new URL(page.url()).pathname).to.equal(`/projects/${seed.project}`);
    expect(await page.locator('tbody').innerText()).to.not.contain('Old <i>export</i>');
    expect((await vigil.request('GET', `/v1/monitors/${id}`, { key: seed.ownerKey })).status).to.equal(404);
    await context.close();
  });

  it('does not delete a monitor others depend on: the page names them, and a forged POST is refused with a 409', async () => {
    const create = async (body: Record<string, unknown>) =>
      (await vigil.request('POST', '/v1/monitors', { key: seed.ownerKey, body: { project_id: seed.project, type: 'JOB_BASIC', schedule: 'x', ...body } })).body.monitor.id as string;
    const database = await create({ name: 'Database' });
    const report = await create({ name: 'Report <u>job</u>', depends_on: [database] });
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.ownerKey, `/monitors/${database}/delete`);
    expect(await page.locator('h1').innerText()).to.equal('Database cannot be deleted yet');
    expect(await page.getByRole('button', { name: /Delete/ }).count()).to.equal(0);
    expect(await page.getByRole('link', { name: 'Edit Report <u>job</u>' }).getAttribute('href')).to.equal(`/monitors/${report}/edit`);
    await browser!.accessible(page);
    const token = await page.locator('input[name="csrf_token"]').first().inputValue();
    const forged = await context.request.post(`${vigil.url}/monitors/${database}/delete`, { form: { csrf_token: token }, maxRedirects: 0 });
    expect(forged.status()).to.equal(409);
    expect((await vigil.request('GET', `/v1/monitors/${database}`, { key: seed.ownerKey })).status).to.equal(200);

    // Untick it from the dependent's form, and it can go.
    await page.getByRole('link', { name: 'Edit Report <u>job</u>' }).click();
    await page.getByLabel('Database').uncheck();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('.notice', { hasText: 'Changes saved.' }).waitFor();
    await page.goto(`${vigil.url}/monitors/${database}/delete`);
    await page.getByRole('button', { name: 'Delete Database' }).click();
    await page.locator('.notice', { hasText: 'Monitor deleted.' }).waitFor();
    await context.close();
  });

  it('shows a READONLY member no New, Edit or Delete, and refuses their forged POSTs with a 403', async () => {
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.viewerKey, `/projects/${seed.project}`);
    expect(await page.getByRole('link', { name: 'New monitor' }).count()).to.equal(0);
    await page.goto(`${vigil.url}/monitors/${seed.cron}`);
    expect(await page.getByRole('link', { name: 'Edit' }).count()).to.equal(0);
    expect(await page.getByRole('link', { name: 'Delete…' }).count()).to.equal(0);
    const edit = await page.goto(`${vigil.url}/monitors/${seed.cron}/edit`);
    expect(edit!.status()).to.equal(403);
    const token = await page.locator('input[name="csrf_token"]').first().inputValue();
    const forged = async (path: string, form: Record<string, string>) =>
      (await context.request.post(`${vigil.url}${path}`, { form: { csrf_token: token, ...form }, maxRedirects: 0 })).status();
    expect(await forged(`/projects/${seed.project}/monitors`, { type: 'JOB_BASIC', name: 'Forged' })).to.equal(403);
    expect(await forged(`/monitors/${seed.cron}/edit`, { name: 'Forged', grace: '0' })).to.equal(403);
    expect(await forged(`/monitors/${seed.cron}/delete`, {})).to.equal(403);
    const api = (await vigil.request('GET', `/v1/monitors/${seed.cron}`, { key: seed.ownerKey })).body.monitor;
    expect(api.name).to.equal('Nightly <b>backup</b>');
    await context.close();
  });

  it('fits a phone: no sideways scrolling and no serious axe finding at 390 px on the form pages', async () => {
    const context = await browser!.context({ width: 390 });
    const page = await browser!.signIn(context, seed.ownerKey, `/projects/${seed.project}/monitors/new`);
    await fitsWidth(page);
    await browser!.accessible(page);
    await browser!.shoot(page, 'new-390');
    await browser!.shoot(page, 'new-390-top', false);
    await page.getByLabel('DNS record').check();
    await fitsWidth(page);
    await page.goto(`${vigil.url}/monitors/${seed.cron}/edit`);
    await fitsWidth(page);
    await browser!.accessible(page);
    await browser!.shoot(page, 'edit-390');
    await page.getByLabel('Failures before DOWN').fill('none');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('.error-summary', { hasText: 'Failures before DOWN must be a whole number, not "none"' }).waitFor();
    await fitsWidth(page);
    await browser!.accessible(page);
    await browser!.shoot(page, 'refused-390');
    await page.getByLabel('Failures before DOWN').scrollIntoViewIfNeeded();
    await browser!.shoot(page, 'refused-390-field', false);
    await page.getByLabel('Time zone').scrollIntoViewIfNeeded();
    await browser!.shoot(page, 'edit-390-schedule', false);
    await page.goto(`${vigil.url}/monitors/${seed.cron}/delete`);
    await fitsWidth(page);
    await browser!.accessible(page);
    await browser!.shoot(page, 'delete-390');
    await page.goto(`${vigil.url}/monitors/${seed.cron}`);
    await fitsWidth(page);
    await browser!.shoot(page, 'monitor-390-actions', false);
    await context.close();
  });

  it('without JavaScript shows every type\'s fields under their headings, and still creates', async () => {
    const context = await browser!.context({ javaScriptEnabled: false });
    const page = await browser!.signIn(context, seed.ownerKey, `/projects/${seed.project}/monitors/new`);
    for (const legend of ['HTTP check (HTTP uptime monitors)', 'TCP check (TCP port monitors)', 'DNS check (DNS record monitors)', 'History (jobs)']) {
      expect(await page.locator('legend', { hasText: legend }).isVisible(), legend).to.equal(true);
    }
    expect(await page.getByLabel('Cron expression or calendar rule').isVisible()).to.equal(true);
    expect(await page.getByLabel('Port', { exact: true }).isVisible()).to.equal(true);
    // (axe runs as a script, which this page may not: the same markup is checked with scripts on above.)
    await browser!.shoot(page, 'new-no-js');
    await page.getByLabel('TCP port').check();
    await page.getByLabel('Name', { exact: true }).fill('Database port');
    await page.getByLabel('Host', { exact: true }).fill('db.internal');
    await page.getByLabel('Port', { exact: true }).fill('5432');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.locator('.notice', { hasText: 'Monitor created.' }).waitFor();
    expect(await page.locator('.lede').innerText()).to.contain('TCP connection to db.internal port 5432 every 5 min');
    await context.close();
  });

  it('made every request to the server itself, and no script dialog ever opened', () => {
    expect(browser!.elsewhere()).to.deep.equal([]);
    expect(browser!.dialogs).to.deep.equal([]);
  });
});
