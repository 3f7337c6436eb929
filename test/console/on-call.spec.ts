import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { chromiumUnavailable } from '../support/chromium.js';
import { ConsoleBrowser } from '../support/console-browser.js';
import { type Target, reply, startTarget } from '../support/http-targets.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../support/test-vigil.js';

const SHOTS = '/tmp/shots-oncall';

describe('Console on-call schedules and quiet hours in a real browser', function () {
  this.timeout(240_000);
  let vigil: TestVigil;
  let browser: ConsoleBrowser | undefined;
  let receiver: Target | undefined;
  const seed = {} as { ownerKey: string; project: string; owner: string; ann: string; bob: string };

  before(async function () {
    const unavailable = chromiumUnavailable();
    if (unavailable) {
      console.log(`      [skipped] the console on-call browser tests: ${unavailable}`);
      this.skip();
    }
    // Wednesday 25 March 2026, 12:00 UTC: Berlin's clocks go forward on Sunday.
    vigil = await TestVigil.start({ clock: new TestClock(Date.parse('2026-03-25T12:00:00.000Z')) });
    receiver = await startTarget(reply(204));
    seed.owner = await vigil.user('owner@example.com');
    seed.ann = await vigil.user('ann@example.com');
    seed.bob = await vigil.user('bob@example.com');
    seed.project = await vigil.project(seed.owner, 'Payments');
    await vigil.member(seed.project, seed.ann, 'MEMBER');
    await vigil.member(seed.project, seed.bob, 'MEMBER');
    seed.ownerKey = await vigil.accountKey(seed.owner, ALL_SCOPES);
    browser = await ConsoleBrowser.launch(vigil.url, SHOTS);
  });

  after(async () => {
    await browser?.close();
    await receiver?.close();
    await vigil?.stop();
  });

  const settings = (page: string) => `/projects/${seed.project}/settings/${page}`;

  async function fitsBothWidths(page: Page, name: string) {
    await page.setViewportSize({ width: 390, height: 844 });
    expect(Number(await page.evaluate('document.documentElement.scrollWidth')), `${name} at 390 px`).to.be.at.most(390);
    await browser!.accessible(page);
    await browser!.shoot(page, `${name}-390`);
    await page.setViewportSize({ width: 1280, height: 900 });
    await browser!.accessible(page);
    await browser!.shoot(page, `${name}-1280`);
  }

  it('creates a schedule with its rotation in order and an override, shows who is on call now and next in its zone, reorders it and deletes it', async () => {
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.ownerKey, settings('on-call'));
    await fitsBothWidths(page, 'on-call-empty');
    await page.getByRole('link', { name: 'New schedule' }).click();
    await page.getByLabel('Name').fill('Database on call');
    await page.getByLabel('Time zone').fill('Mars/Olympus');
    await page.getByLabel('Hand-off time').fill('09:00');
    await page.getByLabel('Each turn lasts (days)').fill('7');
    await page.getByLabel('First turn starts on').fill('2026-03-23');
    await page.getByRole('checkbox', { name: /ann Test/ }).check();
    await page.getByLabel('Order of ann Test').fill('1');
    await page.getByRole('checkbox', { name: /bob Test/ }).check();
    await page.getByLabel('Order of bob Test').fill('2');
    await page.getByLabel('Who').first().selectOption({ label: 'owner Test' });
    await page.getByLabel('From').first().fill('2026-04-01T09:00');
    await page.getByLabel('Until').first().fill('2026-04-02T09:00');
    await page.getByRole('button', { name: 'Create schedule' }).click();
    const summary = page.locator('.error-summary');
    expect(await summary.innerText()).to.contain('Time zone: not a time zone');
    expect(await summary.getByRole('link').getAttribute('href')).to.equal('#schedule-time-zone');
    expect(await page.getByLabel('Name').inputValue()).to.equal('Database on call');
    expect(await page.getByLabel('Order of bob Test').inputValue()).to.equal('2');
    await fitsBothWidths(page, 'on-call-form-refused');

    await page.getByLabel('Time zone').fill('Europe/Berlin');
    await page.getByRole('button', { name: 'Create schedule' }).click();
    await page.getByRole('heading', { name: 'Database on call' }).waitFor();
    const scheduleId = /on-call\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    const stored = (await vigil.request('GET', `/v1/on-call-schedules/${scheduleId}`, { key: seed.ownerKey })).body.on_call_schedule;
    expect(stored).to.deep.include({ time_zone: 'Europe/Berlin', handoff_time: '09:00', rotation: 'weekly', starts_on: '2026-03-23', participants: [seed.ann, seed.bob] });
    expect(stored.overrides).to.deep.equal([{ user_id: seed.owner, from: '2026-04-01T07:00:00.000Z', until: '2026-04-02T07:00:00.000Z' }]);
    const now = await page.locator('dl.on-call-now').innerText();
    expect(now).to.match(/On call now\s+ann Test/);
    // The hand-off after the clock change is still at 09:00, now CEST.
    expect(now).to.match(/Next\s+bob Test\s+Mon, 30 Mar 2026, 09:00 CEST/);
    expect(now).to.contain('owner Test');
    expect(await page.locator('ol.rotation').innerText()).to.contain('no channel of their own');
    await fitsBothWidths(page, 'on-call-schedule');

    await page.getByRole('link', { name: 'Edit schedule' }).click();
    await page.getByLabel('Order of ann Test').fill('2');
    await page.getByLabel('Order of bob Test').fill('1');
    await fitsBothWidths(page, 'on-call-form');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: 'Database on call' }).waitFor();
    expect(await page.locator('dl.on-call-now').innerText()).to.match(/On call now\s+bob Test/);

    await page.goto(`${vigil.url}${settings('on-call')}`);
    expect(await page.locator('table').innerText()).to.contain('bob Test');
    await fitsBothWidths(page, 'on-call-list');

    await page.goto(`${vigil.url}${settings('on-call')}/${scheduleId}`);
    await page.getByRole('link', { name: 'Delete…' }).click();
    await page.getByRole('button', { name: 'Delete the schedule' }).click();
    await page.getByRole('heading', { name: 'On-call schedules' }).waitFor();
    expect((await vigil.request('GET', `/v1/on-call-schedules/${scheduleId}`, { key: seed.ownerKey })).status).to.equal(404);
    await context.close();
  });

  it('sets quiet hours on a channel with the keyboard, keeping what was typed when the zone is wrong', async () => {
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.ownerKey, settings('channels'));
    await page.goto(`${vigil.url}${settings('channels')}/new?type=WEBHOOK`);
    await page.getByLabel('Name', { exact: true }).fill('Night pager');
    await page.locator('#config-url').fill(`${receiver!.url}/night`);
    await page.getByLabel('Hold pages during quiet hours').focus();
    await page.keyboard.press('Space');
    await page.getByRole('checkbox', { name: 'Saturday' }).uncheck();
    await page.getByRole('checkbox', { name: 'Sunday' }).uncheck();
    await page.getByLabel('From').fill('22:00');
    await page.getByLabel('Until').fill('07:00');
    await page.getByLabel('Time zone').fill('Nowhere/Land');
    await page.getByLabel('Whose channel').selectOption({ label: "ann Test's own" });
    await page.getByRole('button', { name: 'Create channel' }).click();
    const summary = page.locator('.error-summary');
    expect(await summary.innerText()).to.contain('Quiet hours time zone: not a time zone');
    expect(await summary.getByRole('link').getAttribute('href')).to.equal('#quiet-hours-time-zone');
    expect(await page.getByRole('checkbox', { name: 'Saturday' }).isChecked()).to.equal(false);
    expect(await page.getByRole('checkbox', { name: 'Monday' }).isChecked()).to.equal(true);
    expect(await page.getByLabel('Hold pages during quiet hours').isChecked()).to.equal(true);
    await fitsBothWidths(page, 'channel-quiet-hours');
    expect(await page.getByLabel('Whose channel').inputValue(), 'kept as chosen').to.equal(seed.ann);
    await page.getByLabel('Time zone').fill('Europe/Berlin');
    await page.getByRole('button', { name: 'Create channel' }).click();
    // A new webhook shows its signing secret once, then the list.
    await page.getByRole('heading', { name: 'Signing secret of Night pager' }).waitFor();
    await page.getByRole('link', { name: 'Done' }).click();
    await page.locator('.quiet-summary').waitFor();
    const channels = (await vigil.request('GET', `/v1/notification-channels?project_id=${seed.project}`, { key: seed.ownerKey })).body;
    expect(channels.find((c: { name: string }) => c.name === 'Night pager').owner_user_id).to.equal(seed.ann);
    expect(channels.find((c: { name: string }) => c.name === 'Night pager').quiet_hours).to.deep.equal({ days: [1, 2, 3, 4, 5], start: '22:00', end: '07:00', time_zone: 'Europe/Berlin' });
    expect(await page.locator('tr', { hasText: 'Night pager' }).locator('.tag').first().innerText()).to.equal("ann Test's own");
    expect(await page.locator('.quiet-summary').innerText()).to.equal('Quiet 22:00–07:00 (Europe/Berlin), Mon, Tue, Wed, Thu, Fri');
    await fitsBothWidths(page, 'channels-with-quiet-hours');
    await context.close();
  });

  it("tells a page held for quiet hours on the incident's timeline, then its delivery after them", async () => {
    // Wednesday 13:00 in Berlin: inside quiet hours from 12:00 to 18:00.
    const quiet = { days: [3], start: '12:00', end: '18:00', time_zone: 'Europe/Berlin' };
    const channel = (await vigil.request('POST', '/v1/notification-channels', {
      key: seed.ownerKey, body: { project_id: seed.project, name: 'Office pager', type: 'WEBHOOK', config: { url: `${receiver!.url}/office` }, quiet_hours: quiet },
    })).body.channel;
    const monitor = (await vigil.request('POST', '/v1/monitors', { key: seed.ownerKey, body: { project_id: seed.project, name: 'Invoice run', type: 'JOB_BASIC', schedule: 'x', notification_channel_ids: [channel.id] } })).body.monitor;
    await vigil.request('GET', `/v1/ping/${monitor.id}/fail`);
    await vigil.notify();
    expect(receiver!.seen.filter((r) => r.url === '/office')).to.have.length(0);
    const incident = (await vigil.request('GET', `/v1/incidents?project_id=${seed.project}`, { key: seed.ownerKey })).body.data[0];
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.ownerKey, `/incidents/${incident.id}`);
    expect(await page.locator('ol.timeline').innerText()).to.contain('Office pager — held for quiet hours until 18:00 (Europe/Berlin)');
    await fitsBothWidths(page, 'incident-held');
    vigil.clock.advance(5 * 3_600_000);
    await vigil.notify();
    expect(receiver!.seen.filter((r) => r.url === '/office')).to.have.length(1);
    await page.reload();
    expect(await page.locator('ol.timeline').innerText()).to.contain('Office pager — held for quiet hours until 18:00 (Europe/Berlin), then delivered 5 h after the page');
    await fitsBothWidths(page, 'incident-held-then-delivered');
    await context.close();
  });
});
