import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import type { BrowserContext, Page } from 'playwright-core';
import type { AuditEventDocument } from '../../projections/audit-events.js';
import { chromiumUnavailable } from '../support/chromium.js';
import { runCliCaptured } from '../support/cli-run.js';
import { ConsoleBrowser } from '../support/console-browser.js';
import { eventually } from '../support/eventually.js';
import { personWithPassword } from '../support/people.js';
import { startSmtpSink } from '../support/smtp-sink.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

const PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'a brand new passphrase';

/** People's accounts in a real browser: the first run, passwords, sessions and resets. */
describe('Accounts in a real browser', function () {
  this.timeout(180_000);
  let vigil: TestVigil | undefined;
  let browser: ConsoleBrowser | undefined;

  before(async function () {
    const unavailable = chromiumUnavailable();
    if (unavailable) {
      console.log(`      [skipped] the accounts browser tests: ${unavailable}`);
      this.skip();
    }
  });

  afterEach(async () => {
    await browser?.close();
    browser = undefined;
    await vigil?.stop();
    vigil = undefined;
  });

  async function start(env: NodeJS.ProcessEnv = {}): Promise<TestVigil> {
    vigil = await TestVigil.start({ env });
    browser = await ConsoleBrowser.launch(vigil.url, 'accounts');
    return vigil;
  }

  const signedOutTo = async (page: Page, path: string) => {
    await page.goto(`${vigil!.url}${path}`);
    return new URL(page.url()).pathname;
  };

  /** axe and a screenshot at 390 and 1280 px wide. */
  async function lookAt(page: Page, name: string): Promise<void> {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await browser!.shoot(page, `${name}-${width}`);
      await browser!.accessible(page);
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), `${name} scrolls sideways at ${width} px`).to.equal(true);
    }
  }

  it('creates the first account from the setup link the server gave, signs it in, and refuses the link after', async () => {
    const v = await start();
    const link = v.vigil.setupLink;
    expect(link).to.match(new RegExp(`^${v.url}/setup\\?token=[A-Za-z0-9_-]{43}$`));
    expect((await fetch(`${v.url}/setup`)).status).to.equal(403);
    const wrong = await fetch(`${v.url}/setup?token=${'A'.repeat(43)}`);
    expect(wrong.status).to.equal(403);
    expect(wrong.headers.get('content-type')).to.match(/^text\/html/);

    const context = await browser!.context();
    const page = await context.newPage();
    await page.goto(link!);
    await page.getByRole('heading', { name: 'Welcome to Vigil' }).waitFor();
    await lookAt(page, 'setup');
    await page.getByLabel('Your name').fill('Ada Lovelace');
    await page.getByLabel('Email address').fill('ada@example.com');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Password again').fill('something else entirely');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.locator('.error-summary').waitFor();
    expect(await page.locator('.error-summary').innerText()).to.contain('The two passwords differ');
    expect(await page.getByLabel('Email address').inputValue()).to.equal('ada@example.com');
    await lookAt(page, 'setup-error');

    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Password again').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/projects/'));
    expect(await page.locator('h1').first().innerText()).to.contain('My project');
    expect(await page.locator('.topbar .who').innerText()).to.contain('ada@example.com');

    // Works once: the same link, another token, or none, now finds an account and refuses.
    for (const path of [link!.slice(v.url.length), `/setup?token=${'A'.repeat(43)}`, '/setup']) {
      const refused = await fetch(`${v.url}${path}`);
      expect(refused.status, path).to.equal(404);
      expect(await refused.text()).to.contain('There is nothing to set up');
    }
    const again = await context.newPage();
    await again.goto(link!);
    expect(await again.locator('h1').innerText()).to.equal('Page not found');

    // The password is in the log only as a scrypt hash, in no read model, and the history hides the hash.
    await v.settle();
    const users = await v.vigil.stores.readModels.find<{ id: string }>('users', {});
    const userId = users[0]!.doc.id;
    const events = await v.vigil.stores.events.readStream(`user-${userId}`);
    const set = events.find((e) => e.type === 'PasswordSet')!;
    expect(set.data['password_hash']).to.match(/^\$scrypt\$ln=15,r=8,p=1\$/);
    expect(set.data['reason']).to.equal('setup');
    const history = await v.vigil.stores.readModels.find<AuditEventDocument>('audit_events', { type: 'PasswordSet' });
    expect(history[0]!.doc.data['password_hash']).to.equal('[redacted]');
    expect(readFileSync(join(v.dataDir, 'vigil.db')).includes(Buffer.from(PASSWORD))).to.equal(false);
    const signIns = await v.vigil.stores.events.readStream(`signins-${userId}`);
    expect(signIns.map((e) => [e.type, e.data['method']])).to.deep.equal([['UserSignedIn', 'setup']]);
    await context.close();
  });

  it('signs in with a password, refuses a wrong one as it refuses an unknown email, and signs out', async () => {
    const v = await start();
    await personWithPassword(v, 'ada@example.com', PASSWORD);
    const context = await browser!.context();
    const page = await context.newPage();
    expect(await signedOutTo(page, '/account')).to.equal('/sign-in');
    await lookAt(page, 'sign-in');

    const refusal = async (email: string) => {
      await page.getByLabel('Email address').fill(email);
      await page.getByLabel('Password', { exact: true }).fill('not the password at all');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.locator('.error-summary').waitFor();
      return page.locator('.error-summary').innerText();
    };
    const wrongPassword = await refusal('ada@example.com');
    await lookAt(page, 'sign-in-wrong-password');
    const unknownEmail = await refusal('nobody@example.com');
    expect(wrongPassword).to.contain('Email or password is wrong');
    expect(unknownEmail).to.equal(wrongPassword);

    await page.getByLabel('Email address').fill('ada@example.com');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    // Back where it was going: the account page asked for before signing in.
    await page.waitForURL((url) => url.pathname === '/account');
    expect(await page.locator('.this-session').count()).to.equal(1);
    expect(await page.locator('#sessions ~ * td').first().innerText()).to.contain('Password');
    await lookAt(page, 'account');
    const session = (await context.cookies()).find((c) => c.name === 'vigil_session');
    expect(session).to.include({ httpOnly: true, sameSite: 'Strict', path: '/' });

    await page.locator('.topbar').getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/sign-in');
    expect(await page.locator('.notice').innerText()).to.contain('You have signed out');
    expect(await signedOutTo(page, '/account')).to.equal('/sign-in');
    await context.close();
  });

  it('lists the sessions and ends another one: that browser is signed out, its live dashboard too', async () => {
    const v = await start();
    const { projectId } = await personWithPassword(v, 'ada@example.com', PASSWORD);
    const laptop = await browser!.context();
    const phone = await browser!.context({ width: 390 });
    const onLaptop = await browser!.signInWithPassword(laptop, 'ada@example.com', PASSWORD, '/account');
    const onPhone = await browser!.signInWithPassword(phone, 'ada@example.com', PASSWORD, `/projects/${projectId}`);
    // Its live stream open before the session ends elsewhere.
    const streaming = onPhone.waitForResponse((response) => response.url().endsWith(`/projects/${projectId}/events`));
    await onPhone.reload();
    await streaming;

    await onLaptop.reload();
    const rows = onLaptop.locator('#sessions ~ .table-wrap tbody tr');
    expect(await rows.count()).to.equal(2);
    const other = rows.filter({ hasNot: onLaptop.locator('.this-session') });
    await other.getByRole('button', { name: /^End the Password session/ }).click();
    await onLaptop.waitForURL((url) => url.searchParams.get('done') === 'session-ended');
    expect(await onLaptop.locator('.notice').innerText()).to.contain('Session ended');
    expect(await rows.count()).to.equal(1);

    // The phone's open dashboard is told by its live stream, and goes to sign in.
    await eventually(async () => expect(new URL(onPhone.url()).pathname).to.equal('/sign-in'), 20_000, 200);
    expect(await onPhone.locator('.notice').innerText()).to.contain('Your session has ended');
    await laptop.close();
    await phone.close();
  });

  it('changes the password, which ends the other sessions and keeps this one', async () => {
    const v = await start();
    await personWithPassword(v, 'ada@example.com', PASSWORD);
    const one = await browser!.context();
    const two = await browser!.context();
    const here = await browser!.signInWithPassword(one, 'ada@example.com', PASSWORD, '/account');
    const there = await browser!.signInWithPassword(two, 'ada@example.com', PASSWORD, '/account');

    await here.getByLabel('Current password').fill('not my password at all');
    await here.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await here.getByLabel('New password again').fill(NEW_PASSWORD);
    await here.getByRole('button', { name: 'Change password' }).click();
    await here.locator('.error-summary').waitFor();
    expect(await here.locator('.error-summary').innerText()).to.contain('Your current password is wrong');
    await lookAt(here, 'account-password-error');

    await here.getByLabel('Current password').fill(PASSWORD);
    await here.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await here.getByLabel('New password again').fill(NEW_PASSWORD);
    await here.getByRole('button', { name: 'Change password' }).click();
    await here.waitForURL((url) => url.searchParams.get('done') === 'password-changed');
    expect(await here.locator('.notice').innerText()).to.contain('Your other sessions have ended');

    await there.reload();
    expect(new URL(there.url()).pathname).to.equal('/sign-in');
    await here.reload();
    expect(new URL(here.url()).pathname).to.equal('/account');

    const fresh = await browser!.context();
    const page = await fresh.newPage();
    await page.goto(`${v.url}/sign-in`);
    await page.getByLabel('Email address').fill('ada@example.com');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.locator('.error-summary').waitFor();
    await fresh.close();
    await browser!.signInWithPassword(await browser!.context(), 'ada@example.com', NEW_PASSWORD);
    await one.close();
    await two.close();
  });

  it('resets a password through the link an operator prints with vigil users reset-password; the link works once and ends every session', async () => {
    const v = await start();
    await personWithPassword(v, 'ada@example.com', PASSWORD);
    const old = await browser!.context();
    const oldPage = await browser!.signInWithPassword(old, 'ada@example.com', PASSWORD, '/account');

    const forgot = await (await browser!.context()).newPage();
    await forgot.goto(`${v.url}/sign-in`);
    await forgot.getByRole('link', { name: 'Forgot your password?' }).click();
    await forgot.waitForURL((url) => url.pathname === '/forgot-password');
    expect(await forgot.locator('main').innerText()).to.contain('vigil users reset-password');
    await lookAt(forgot, 'forgot-password-no-mail');

    const run = await runCliCaptured(['users', 'reset-password', 'ada@example.com', '--url', v.url], v.env, v.clock.now);
    expect(run.code, run.stderr).to.equal(0);
    const link = run.stdout[0]!;
    expect(link).to.match(new RegExp(`^${v.url}/reset-password\\?token=[0-9a-f-]{36}\\.[A-Za-z0-9_-]{43}$`));
    expect(run.stderr).to.contain('works once');

    const resetting = await browser!.context();
    const page = await resetting.newPage();
    await page.goto(link);
    await lookAt(page, 'reset-password');
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('New password again').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/projects/'));

    await oldPage.reload();
    expect(new URL(oldPage.url()).pathname).to.equal('/sign-in');
    const used = await fetch(link);
    expect(used.status).to.equal(404);
    expect(await used.text()).to.contain('This reset link has expired or has been used');
    expect((await runCliCaptured(['users', 'reset-password', 'nobody@example.com'], v.env, v.clock.now)).stderr).to.contain('no user has the email nobody@example.com');
    await browser!.signInWithPassword(await browser!.context(), 'ada@example.com', NEW_PASSWORD);
    await old.close();
    await resetting.close();
  });

  it('mails a reset link through a real SMTP server, pointing at VIGIL_PUBLIC_URL, and answers alike for an unknown email', async () => {
    const smtp = await startSmtpSink();
    try {
      const v = await start({ VIGIL_SMTP_HOST: '127.0.0.1', VIGIL_SMTP_PORT: String(smtp.port), VIGIL_SMTP_FROM: 'Vigil <vigil@example.com>', VIGIL_PUBLIC_URL: 'https://vigil.example.com/' });
      await personWithPassword(v, 'ada@example.com', PASSWORD);
      const page = await (await browser!.context()).newPage();
      const ask = async (email: string) => {
        await page.goto(`${v.url}/forgot-password`);
        await page.getByLabel('Email address').fill(email);
        await page.getByRole('button', { name: 'Email me a link' }).click();
        await page.locator('.notice').waitFor();
        return (await page.locator('.notice').innerText()).replace(email, 'EMAIL');
      };
      await page.goto(`${v.url}/forgot-password`);
      await lookAt(page, 'forgot-password');
      const known = await ask('ada@example.com');
      const unknown = await ask('nobody@example.com');
      expect(known).to.equal(unknown);
      expect(known).to.contain('a link to set a new password is on its way');

      const mail = await eventually(() => {
        expect(smtp.mails).to.have.length(1);
        return smtp.mails[0]!;
      }, 10_000, 50);
      expect(mail.to).to.deep.equal(['ada@example.com']);
      expect(mail.data).to.match(/^Subject: Reset your Vigil password\r?$/m);
      const link = /https:\/\/vigil\.example\.com\/reset-password\?token=[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}/.exec(mail.data.replace(/=\r?\n/g, '').replace(/=3D/g, '='))?.[0];
      expect(link, mail.data).to.be.a('string');

      await page.goto(link!.replace('https://vigil.example.com', v.url));
      await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
      await page.getByLabel('New password again').fill(NEW_PASSWORD);
      await page.getByRole('button', { name: 'Set password and sign in' }).click();
      await page.waitForURL((url) => url.pathname.startsWith('/projects/'));
      expect(smtp.mails).to.have.length(1);
    } finally {
      await smtp.close();
    }
  });

  it('still signs in with an API key, for automation, and shows such a session on the account page', async () => {
    const v = await start();
    const { userId } = await personWithPassword(v, 'ada@example.com', PASSWORD);
    const key = await v.accountKey(userId, ALL_SCOPES);
    const context: BrowserContext = await browser!.context();
    const page = await browser!.signIn(context, key, '/account');
    expect(new URL(page.url()).pathname).to.equal('/account');
    expect(await page.locator('.this-session').locator('..').innerText()).to.contain('API key');
    expect(await page.locator('#password-heading ~ p').first().innerText()).to.contain('You signed in with an API key');
    await context.close();
  });
});
