import { expect } from 'chai';
import { Secret, TOTP } from 'otpauth';
import type { BrowserContext, Page } from 'playwright-core';
import { chromiumUnavailable } from '../support/chromium.js';
import { ConsoleBrowser } from '../support/console-browser.js';
import { hashPassword } from '../../src/app/passwords.js';
import { setPassword } from '../../src/app/accounts.js';
import { TestVigil } from '../support/test-vigil.js';

const SHOTS = '/tmp/shots-factors';

/** Codes as an authenticator app would show them, at the spec clock's time. */
function codeAt(secret: string, at: Date): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: at.getTime() });
}

/** The console's second factors in a real Chromium: enrolment, management, and the sign-in's second step. */
describe('Second factors in a real browser', function () {
  this.timeout(180_000);
  let vigil: TestVigil;
  let browser: ConsoleBrowser | undefined;
  /** WebAuthn wants a host name: Chromium refuses an IP address as a relying party id, and treats http://localhost as secure. */
  let origin: string;

  before(async function () {
    const unavailable = chromiumUnavailable();
    if (unavailable) {
      console.log(`      [skipped] the second-factor browser tests: ${unavailable}`);
      this.skip();
    }
    vigil = await TestVigil.start();
    origin = vigil.url.replace('127.0.0.1', 'localhost');
    browser = await ConsoleBrowser.launch(origin, SHOTS);
  });

  after(async () => {
    await browser?.close();
    await vigil?.stop();
  });

  const PASSWORD = 'correct horse battery staple';

  async function person(email: string): Promise<{ userId: string }> {
    const userId = await vigil.user(email);
    await vigil.project(userId, `${email.split('@')[0]} project`);
    await setPassword(vigil.commands, { user_id: userId, password_hash: await hashPassword(PASSWORD), reason: 'setup' }, { kind: 'system', user_id: null, api_key_id: null, request_id: null });
    await vigil.settle();
    return { userId };
  }

  /** The password form on a page already open (its virtual authenticator, if any, stays with it). */
  async function passwordStep(page: Page, email: string): Promise<void> {
    await page.goto(`${origin}/sign-in`);
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname !== '/sign-in');
  }

  async function signOut(page: Page): Promise<void> {
    await page.getByRole('button', { name: 'Sign out' }).first().click();
    await page.waitForURL((url) => url.pathname === '/sign-in');
  }

  async function signInRecord(userId: string) {
    return (await vigil.vigil.stores.events.readStream(`signins-${userId}`)).map((e) => ({ type: e.type, data: e.data }));
  }

  /** Looks at the page at both widths: axe finds nothing serious, and a screenshot of each is kept. */
  async function checked(page: Page, name: string, part: string | null = null): Promise<void> {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await browser!.accessible(page);
      // Where the page is another feature's, only the part this one adds is held to its width.
      const overflow = part === null
        ? Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'))
        : Math.ceil(((await page.locator(part).boundingBox())?.x ?? 0) + ((await page.locator(part).boundingBox())?.width ?? 0) - width);
      const culprits = overflow > 0 ? await page.evaluate(`[...document.querySelectorAll('main *')].filter((e) => e.getBoundingClientRect().right > ${width} + 1).slice(0, 5).map((e) => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).join(', ')`) : '';
      expect(overflow, `${name} scrolls sideways at ${width} px: ${String(culprits)}`).to.be.at.most(0);
      await browser!.shoot(page, `${name}-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  async function factorEvents(userId: string) {
    return (await vigil.vigil.stores.events.readStream(`factors-${userId}`)).map((e) => ({ type: e.type, data: e.data }));
  }

  async function openFactors(context: BrowserContext, email: string): Promise<Page> {
    const page = await context.newPage();
    await passwordStep(page, email);
    await page.goto(`${origin}/account`);
    await page.getByRole('link', { name: 'Manage second factors' }).click();
    await page.waitForURL(`${origin}/account/second-factors`);
    return page;
  }

  it('adds an authenticator app once a code from it is entered, shows the recovery codes once, and keeps the seed sealed', async () => {
    const { userId } = await person('totp@example.com');
    const context = await browser!.context();
    const page = await openFactors(context, 'totp@example.com');
    expect(await page.locator('main').innerText()).to.contain('You have no second factor');
    await checked(page, 'factors-empty');

    await page.getByRole('link', { name: 'Set up an authenticator app' }).click();
    const secret = (await page.locator('#totp-secret').innerText()).replace(/\s+/g, '');
    expect(secret).to.match(/^[A-Z2-7]{32}$/);
    const qr = await page.locator('img.qr-code').getAttribute('src');
    expect(qr).to.match(/^data:image\/svg\+xml;base64,/);
    await checked(page, 'totp-setup');

    await page.getByLabel('Code from the app').fill(String((Number(codeAt(secret, vigil.clock.now())) + 1) % 1_000_000).padStart(6, '0'));
    await page.getByRole('button', { name: 'Turn on the authenticator app' }).click();
    expect(await page.locator('.error-summary').innerText()).to.contain('not the one your app shows now');
    // The same seed is offered again, so the app set up a moment ago still works.
    expect((await page.locator('#totp-secret').innerText()).replace(/\s+/g, '')).to.equal(secret);
    await checked(page, 'totp-setup-error');

    await page.getByLabel('Code from the app').fill(codeAt(secret, vigil.clock.now()));
    await page.getByLabel('Name').fill('Aegis on my phone');
    await page.getByRole('button', { name: 'Turn on the authenticator app' }).click();
    await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    const codes = (await page.locator('#recovery-codes').innerText()).split('\n').map((c) => c.trim()).filter((c) => c !== '');
    expect(codes).to.have.length(10);
    for (const code of codes) expect(code).to.match(/^[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}$/);
    await checked(page, 'recovery-codes');
    await page.getByRole('link', { name: 'Done, I have saved them' }).click();
    const row = page.locator('tr', { hasText: 'Aegis on my phone' });
    expect(await row.innerText()).to.contain('Authenticator app');
    expect(await page.locator('main').innerText()).to.contain('10 of 10 codes left');
    // The codes are shown that once.
    expect(await page.content()).to.not.contain(codes[0]!);
    await page.goto(`${origin}/account`);
    const section = page.locator('section', { has: page.getByRole('heading', { name: 'Second factors' }) });
    expect(await section.innerText()).to.contain('Aegis on my phone').and.to.contain('10 of 10 recovery codes left');
    await checked(page, 'account-section', 'section:has(#second-factors)');

    const events = await factorEvents(userId);
    expect(events.map((e) => e.type)).to.deep.equal(['TotpFactorAdded', 'RecoveryCodesGenerated']);
    const log = JSON.stringify(events);
    expect(log).to.not.contain(secret);
    for (const code of codes) expect(log).to.not.contain(code);
    expect(String(events[0]!.data['seed_sealed'])).to.match(/^v1\./);
    const doc = await vigil.vigil.stores.readModels.get('second_factors', userId);
    expect(JSON.stringify(doc)).to.not.contain('seed');
    const history = await vigil.vigil.stores.readModels.find('audit_events', { stream: `factors-${userId}` });
    expect(JSON.stringify(history)).to.contain('[redacted]').and.not.contain('v1.');
    expect(browser!.elsewhere()).to.deep.equal([]);
    await context.close();
  });

  it('adds a passkey with Chromium’s virtual authenticator, and removes it after asking, as the last factor', async () => {
    const { userId } = await person('passkey@example.com');
    const context = await browser!.context();
    const page = await openFactors(context, 'passkey@example.com');
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });

    await page.getByRole('button', { name: 'Add a passkey' }).click();
    expect(await page.locator('.error-summary').innerText()).to.contain('Enter a name');
    await page.getByLabel('Name of the passkey').fill('Work laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    await page.getByRole('link', { name: 'Done, I have saved them' }).click();
    const row = page.locator('tr', { hasText: 'Work laptop' });
    expect(await row.innerText()).to.contain('Passkey').and.to.contain('internal');
    await checked(page, 'factors-passkey');
    const added = (await factorEvents(userId)).find((e) => e.type === 'PasskeyAdded')!;
    expect(added.data).to.include({ name: 'Work laptop', user_id: userId });
    expect(added.data['transports']).to.deep.equal(['internal']);

    await row.getByRole('link', { name: 'Remove Work laptop' }).click();
    expect(await page.locator('main').innerText()).to.contain('This is your last second factor');
    await checked(page, 'remove-last');
    await page.getByRole('button', { name: 'Remove my last second factor' }).click();
    await page.locator('.notice', { hasText: 'Second factor removed.' }).waitFor();
    expect(await page.locator('main').innerText()).to.contain('You have no second factor');
    expect((await factorEvents(userId)).at(-1)).to.deep.include({ type: 'SecondFactorRemoved' });
    expect(browser!.elsewhere()).to.deep.equal([]);
    await context.close();
  });

  it('asks a session that signed in more than 15 minutes ago to sign in again before any change', async () => {
    await person('stale@example.com');
    const context = await browser!.context();
    const page = await openFactors(context, 'stale@example.com');
    vigil.clock.advance(16 * 60_000);
    await page.reload();
    expect(await page.locator('main').innerText()).to.contain('Sign in again to make changes');
    expect(await page.getByRole('link', { name: 'Set up an authenticator app' }).count()).to.equal(0);
    await checked(page, 'factors-stale');
    const csrf = await page.locator('input[name=csrf_token]').first().inputValue();
    const refused = await page.request.post(`${origin}/account/second-factors/recovery-codes`, { form: { csrf_token: csrf }, maxRedirects: 0 });
    expect(refused.status()).to.equal(303);
    expect(refused.headers()['location']).to.equal('/account/second-factors');
    await page.getByRole('button', { name: 'Sign in again' }).click();
    await page.waitForURL((url) => url.pathname === '/sign-in');
    expect(new URL(page.url()).searchParams.get('next')).to.equal('/account/second-factors');
    await context.close();
  });

  it('asks for a code at sign-in once an app is set up: a wrong code and a replayed one are refused, a recovery code works once', async () => {
    const email = 'second-step@example.com';
    const { userId } = await person(email);
    const context = await browser!.context();
    const page = await context.newPage();
    await passwordStep(page, email);
    await page.goto(`${origin}/account/second-factors/totp`);
    const secret = (await page.locator('#totp-secret').innerText()).replace(/\s+/g, '');
    await page.getByLabel('Code from the app').fill(codeAt(secret, vigil.clock.now()));
    await page.getByRole('button', { name: 'Turn on the authenticator app' }).click();
    const codes = (await page.locator('#recovery-codes').innerText()).split('\n').map((c) => c.trim()).filter((c) => c !== '');
    await page.getByRole('link', { name: 'Done, I have saved them' }).click();
    await signOut(page);

    // The code that confirmed the app is spent: the next one, 30 s on, signs in.
    vigil.clock.advance(30_000);
    await passwordStep(page, email);
    expect(new URL(page.url()).pathname).to.equal('/sign-in/second-factor');
    expect(await signInRecord(userId).then((r) => r.filter((e) => e.type === 'UserSignedIn').length)).to.equal(1);
    await checked(page, 'second-step');
    await page.getByLabel('Code from the app').fill(String((Number(codeAt(secret, vigil.clock.now())) + 7) % 1_000_000).padStart(6, '0'));
    await page.getByRole('button', { name: 'Verify the code' }).click();
    expect(await page.locator('.error-summary').innerText()).to.contain('That code is not right');
    await checked(page, 'second-step-error');
    const code = codeAt(secret, vigil.clock.now());
    await page.getByLabel('Code from the app').fill(code);
    await page.getByRole('button', { name: 'Verify the code' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
    expect((await signInRecord(userId)).at(-1)!.data).to.include({ method: 'password', second_factor: 'totp' });
    await signOut(page);

    await passwordStep(page, email);
    await page.getByLabel('Code from the app').fill(code);
    await page.getByRole('button', { name: 'Verify the code' }).click();
    expect(await page.locator('.error-summary').innerText()).to.contain('already been used');

    await page.getByLabel('Recovery code', { exact: true }).fill(codes[4]!.toUpperCase());
    await page.getByRole('button', { name: 'Use the recovery code' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
    await page.goto(`${origin}/account/second-factors`);
    expect(await page.locator('main').innerText()).to.contain('9 of 10 codes left');
    await signOut(page);
    await passwordStep(page, email);
    await page.getByLabel('Recovery code', { exact: true }).fill(codes[4]!);
    await page.getByRole('button', { name: 'Use the recovery code' }).click();
    expect(await page.locator('.error-summary').innerText()).to.contain('not valid, or has been used');
    expect(new URL(page.url()).pathname).to.match(/^\/sign-in\/second-factor/);

    const events = await factorEvents(userId);
    expect(events.filter((e) => e.type === 'SecondFactorFailed').map((e) => [e.data['method'], e.data['reason']])).to.deep.equal([
      ['totp', 'wrong_code'],
      ['totp', 'code_already_used'],
      ['recovery_code', 'unknown_recovery_code'],
    ]);
    expect(events.filter((e) => e.type === 'SecondFactorUsed' || e.type === 'RecoveryCodeUsed').map((e) => e.type)).to.deep.equal(['SecondFactorUsed', 'RecoveryCodeUsed']);
    const failures = (await signInRecord(userId)).filter((e) => e.type === 'UserSignInFailed');
    expect(failures.map((e) => e.data['reason'])).to.deep.equal(['wrong_second_factor', 'wrong_second_factor', 'wrong_second_factor']);
    expect(JSON.stringify(events)).to.not.contain(code);
    expect(browser!.elsewhere()).to.deep.equal([]);
    await context.close();
  });

  it('signs in with a passkey as the second step, and then with the passkey alone, through the virtual authenticator', async () => {
    const email = 'passkey-step@example.com';
    const { userId } = await person(email);
    const context = await browser!.context();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    await passwordStep(page, email);
    await page.goto(`${origin}/account/second-factors`);
    await page.getByLabel('Name of the passkey').fill('Phone');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByRole('link', { name: 'Done, I have saved them' }).click();
    await signOut(page);

    await passwordStep(page, email);
    expect(new URL(page.url()).pathname).to.equal('/sign-in/second-factor');
    await checked(page, 'second-step-passkey');
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
    expect((await signInRecord(userId)).at(-1)!.data).to.include({ method: 'password', second_factor: 'passkey' });
    const used = (await factorEvents(userId)).filter((e) => e.type === 'SecondFactorUsed');
    expect(used.map((e) => e.data['method'])).to.deep.equal(['passkey']);
    await page.goto(`${origin}/account/second-factors`);
    expect(await page.locator('tr', { hasText: 'Phone' }).innerText()).to.not.contain('never');

    // The same passkey alone signs in (it verified the person), with no second step after it.
    await signOut(page);
    await page.getByRole('link', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL(`${origin}/sign-in/passkey`);
    await checked(page, 'passkey-sign-in');
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
    expect((await signInRecord(userId)).at(-1)!.data).to.include({ method: 'passkey', second_factor: null });
    expect((await factorEvents(userId)).filter((e) => e.type === 'SecondFactorUsed')).to.have.length(2);
    expect(browser!.elsewhere()).to.deep.equal([]);
    await context.close();
  });
});
