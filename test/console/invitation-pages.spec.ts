import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { chromiumUnavailable } from '../support/chromium.js';
import { ConsoleBrowser } from '../support/console-browser.js';
import { personWithPassword } from '../support/people.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

const DAY = 24 * 60 * 60 * 1000;

/** The invitation link's pages, opened signed out in a real browser: open, used, revoked, expired. */
describe('Console invitation pages in a real browser', function () {
  this.timeout(180_000);
  let vigil: TestVigil;
  let browser: ConsoleBrowser | undefined;
  const seed = {} as { ownerKey: string; project: string; owner: string };

  before(async function () {
    const unavailable = chromiumUnavailable();
    if (unavailable) {
      console.log(`      [skipped] the invitation pages browser tests: ${unavailable}`);
      this.skip();
    }
    vigil = await TestVigil.start();
    const { userId, projectId } = await personWithPassword(vigil, 'owner@example.com', 'correct horse battery staple', 'Payments');
    seed.owner = userId;
    seed.project = projectId!;
    seed.ownerKey = await vigil.accountKey(userId, ALL_SCOPES);
    browser = await ConsoleBrowser.launch(vigil.url, 'invitation-pages');
  });

  after(async () => {
    await browser?.close();
    await vigil?.stop();
  });

  async function invite(email: string, role: 'MANAGER' | 'MEMBER' | 'READONLY'): Promise<{ url: string; id: string }> {
    const issued = await vigil.request('POST', `/v1/projects/${seed.project}/invitations`, { key: seed.ownerKey, body: { email, role } });
    expect(issued.status, issued.text).to.equal(201);
    return { url: issued.body.url, id: issued.body.invitation.id };
  }

  const members = async (): Promise<Array<{ user_id: string; role: string; user?: { email: string } }>> =>
    (await vigil.request('GET', `/v1/projects/${seed.project}`, { key: seed.ownerKey })).body.project.members;

  /** axe, no sideways scrolling, and a screenshot, at 390 and 1280 px wide. */
  async function lookAt(page: Page, name: string): Promise<void> {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await browser!.shoot(page, `${name}-${width}`);
      await browser!.accessible(page);
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), `${name} scrolls sideways at ${width} px`).to.equal(true);
    }
  }

  it('opens a link signed out and creates an account from it, which joins with the role and is signed in', async () => {
    const { url } = await invite('grace@example.com', 'MANAGER');
    const context = await browser!.context();
    const page = await context.newPage();
    const opened = await page.goto(url);
    expect(opened!.status()).to.equal(200);
    await page.getByRole('heading', { name: 'Join Payments' }).waitFor();
    expect(await page.locator('.lede').innerText()).to.match(/invited grace@example\.com to the project Payments as MANAGER/);
    await lookAt(page, 'invitation-open');

    await page.getByLabel('Your name').fill('Grace Hopper');
    await page.getByLabel('Password', { exact: true }).fill('a long enough passphrase');
    await page.getByLabel('Password again').fill('a long enough passphrase');
    await page.getByRole('button', { name: 'Create account and join' }).click();
    await page.waitForURL((u) => u.pathname === `/projects/${seed.project}`);
    expect(await page.locator('.who').innerText()).to.contain('grace@example.com');
    const grace = (await members()).find((m) => m.user?.email === 'grace@example.com');
    expect(grace, 'Grace is a member').to.not.equal(undefined);
    expect(grace!.role).to.equal('MANAGER');
    await context.close();

    // The account has the password chosen on the invitation page.
    const again = await browser!.context();
    const signedIn = await browser!.signInWithPassword(again, 'grace@example.com', 'a long enough passphrase');
    // Signed in, the project is theirs to see (a person with one project is taken straight to it).
    expect(await signedIn.locator('.who').innerText()).to.contain('grace@example.com');
    await signedIn.goto(`${vigil.url}/projects/${seed.project}`);
    expect(await signedIn.locator('h1').first().innerText()).to.contain('Payments');
    await again.close();
  });

  it('works once: the used link shows a clear page, and no one joins twice', async () => {
    const { url } = await invite('ada@example.com', 'READONLY');
    const first = await browser!.context();
    const page = await first.newPage();
    await page.goto(url);
    await page.getByLabel('Your name').fill('Ada');
    await page.getByLabel('Password', { exact: true }).fill('another long passphrase');
    await page.getByLabel('Password again').fill('another long passphrase');
    await page.getByRole('button', { name: 'Create account and join' }).click();
    await page.waitForURL((u) => u.pathname === `/projects/${seed.project}`);
    await first.close();
    const before = await members();

    const second = await browser!.context();
    const later = await second.newPage();
    const answer = await later.goto(url);
    expect(answer!.status()).to.equal(410);
    await later.getByRole('heading', { name: 'This invitation has been used' }).waitFor();
    expect(await later.locator('form').count(), 'no form on a used link').to.equal(0);
    await lookAt(later, 'invitation-used');
    expect(await members()).to.deep.equal(before);
    await second.close();
  });

  it('shows a revoked link as revoked, with no way to join', async () => {
    const { url, id } = await invite('linus@example.com', 'MEMBER');
    expect((await vigil.request('DELETE', `/v1/projects/${seed.project}/invitations/${id}`, { key: seed.ownerKey })).status).to.equal(204);
    await vigil.settle();
    const context = await browser!.context();
    const page = await context.newPage();
    const answer = await page.goto(url);
    expect(answer!.status()).to.equal(410);
    await page.getByRole('heading', { name: 'This invitation was revoked' }).waitFor();
    expect(await page.locator('.lede').innerText()).to.equal('It was an invitation to Payments.');
    expect(await page.locator('form').count()).to.equal(0);
    await lookAt(page, 'invitation-revoked');
    // A form kept open from before the revocation does not get in either.
    const token = url.split('/invitations/')[1]!;
    const csrf = await preSessionOf(page);
    const forced = await page.request.post(`${vigil.url}/invitations/${token}/account`, { form: { csrf_token: csrf, name: 'Linus', password: 'yet another passphrase', password_again: 'yet another passphrase' } });
    expect(forced.status()).to.equal(410);
    expect((await members()).map((m) => m.user?.email)).to.not.include('linus@example.com');
    await context.close();
  });

  it('shows an expired link as expired, with no way to join (runs last: it moves the clock 7 days on)', async () => {
    const { url } = await invite('barbara@example.com', 'MEMBER');
    const context = await browser!.context();
    const page = await context.newPage();
    await page.goto(url);
    await page.getByRole('heading', { name: 'Join Payments' }).waitFor();
    const csrf = await preSessionOf(page);
    vigil.clock.advance(7 * DAY + 1000);
    const answer = await page.goto(url);
    expect(answer!.status()).to.equal(410);
    await page.getByRole('heading', { name: 'This invitation has expired' }).waitFor();
    expect(await page.locator('form').count()).to.equal(0);
    await lookAt(page, 'invitation-expired');
    const token = url.split('/invitations/')[1]!;
    const forced = await page.request.post(`${vigil.url}/invitations/${token}/account`, { form: { csrf_token: csrf, name: 'Barbara', password: 'a passphrase for later', password_again: 'a passphrase for later' } });
    expect(forced.status()).to.equal(410);
    expect((await members()).map((m) => m.user?.email)).to.not.include('barbara@example.com');
    await context.close();
  });

  it('asked nothing of any host but the server itself', () => {
    expect(browser!.elsewhere()).to.deep.equal([]);
  });
});

/** The pre-session CSRF token this browser's sign-in page carries (the same for every form shown before sign-in). */
async function preSessionOf(page: Page): Promise<string> {
  const origin = new URL(page.url()).origin;
  const signIn = await page.context().newPage();
  await signIn.goto(`${origin}/sign-in`);
  const token = await signIn.locator('input[name="csrf_token"]').first().inputValue();
  await signIn.close();
  return token;
}
