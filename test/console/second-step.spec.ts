import { expect } from 'chai';
import { Secret, TOTP } from 'otpauth';
import { setPassword } from '../../src/app/accounts.js';
import { hashPassword } from '../../src/app/passwords.js';
import { addTotpFactor } from '../../src/app/second-factors.js';
import { newTotpEnrolment } from '../../src/app/totp.js';
import { TestVigil } from '../support/test-vigil.js';

const SYSTEM = { kind: 'system' as const, user_id: null, api_key_id: null, request_id: null };
const PASSWORD = 'correct horse battery staple';

/** The sign-in's second step over plain HTTP, as a browser holds its cookies: the gate, the form's guards, the throttle. */
describe('The sign-in’s second step', function () {
  this.timeout(60_000);
  let vigil: TestVigil;

  beforeEach(async () => {
    vigil = await TestVigil.start();
  });

  afterEach(async () => {
    await vigil?.stop();
  });

  /** A person with a password and, when `withApp`, an authenticator app: its seed. */
  async function person(email: string, withApp: boolean): Promise<{ userId: string; seed: string | null }> {
    const userId = await vigil.user(email);
    await setPassword(vigil.commands, { user_id: userId, password_hash: await hashPassword(PASSWORD), reason: 'setup' }, SYSTEM);
    if (!withApp) return { userId, seed: null };
    const enrolment = newTotpEnrolment(vigil.commands.secrets!, userId, email, vigil.clock.now());
    const code = new TOTP({ secret: Secret.fromBase32(enrolment.secret) }).generate({ timestamp: vigil.clock.now().getTime() });
    await addTotpFactor(vigil.commands, vigil.commands.secrets!, { user_id: userId, factor_id: 'f-app', name: 'App', pending: enrolment.pending, code }, SYSTEM);
    await vigil.settle();
    return { userId, seed: enrolment.secret };
  }

  const cookies = new Map<string, string>();
  const cookieHeader = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  async function send(method: string, path: string, fields?: Record<string, string>): Promise<Response> {
    const response = await fetch(`${vigil.url}${path}`, {
      method,
      redirect: 'manual',
      headers: { Cookie: cookieHeader(), ...(fields ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}) },
      ...(fields ? { body: new URLSearchParams(fields) } : {}),
    });
    for (const set of response.headers.getSetCookie()) {
      const [pair] = set.split(';');
      const [name, value] = pair!.split('=');
      if (value === '') cookies.delete(name!);
      else cookies.set(name!, value!);
    }
    return response;
  }
  const csrfOf = async (response: Response) => /name="csrf_token" value="([^"]+)"/.exec(await response.text())?.[1] ?? '';

  async function password(email: string): Promise<Response> {
    cookies.clear();
    const csrf = await csrfOf(await send('GET', '/sign-in'));
    return send('POST', '/sign-in/password', { email, password: PASSWORD, csrf_token: csrf });
  }

  it('opens a session at once for a person without a factor, and holds back one with a factor until it passes', async () => {
    await person('plain@example.com', false);
    const plain = await password('plain@example.com');
    expect(plain.status).to.equal(303);
    expect(plain.headers.get('location')).to.equal('/');
    expect(cookies.has('vigil_session')).to.equal(true);

    const { userId } = await person('guarded@example.com', true);
    const guarded = await password('guarded@example.com');
    expect(guarded.headers.get('location')).to.equal('/sign-in/second-factor');
    expect(cookies.has('vigil_session')).to.equal(false);
    expect(cookies.has('vigil_pending_sign_in')).to.equal(true);
    expect((await send('GET', '/')).headers.get('location')).to.match(/^\/sign-in/);
    const signIns = await vigil.vigil.stores.events.readStream(`signins-${userId}`);
    expect(signIns.filter((e) => e.type === 'UserSignedIn')).to.have.length(0);
  });

  it('sends a browser with no waiting sign-in back to the start, and refuses a form without its token', async () => {
    expect((await send('GET', '/sign-in/second-factor')).headers.get('location')).to.equal('/sign-in');
    await person('guarded@example.com', true);
    await password('guarded@example.com');
    const page = await send('GET', '/sign-in/second-factor');
    expect(page.status).to.equal(200);
    await page.text();
    const forged = await send('POST', '/sign-in/second-factor/totp', { code: '123456', csrf_token: 'forged' });
    expect(forged.status).to.equal(403);
    expect(forged.headers.get('content-type')).to.contain('text/html');
  });

  it('waits 15 minutes after five wrong codes in a row, refusing even the right one meanwhile', async () => {
    const { userId, seed } = await person('guessed@example.com', true);
    await password('guessed@example.com');
    const csrf = await csrfOf(await send('GET', '/sign-in/second-factor'));
    vigil.clock.advance(30_000);
    const right = () => new TOTP({ secret: Secret.fromBase32(seed!) }).generate({ timestamp: vigil.clock.now().getTime() });
    const wrong = String((Number(right()) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 5; i += 1) expect((await send('POST', '/sign-in/second-factor/totp', { code: wrong, csrf_token: csrf })).status).to.equal(401);
    const locked = await send('POST', '/sign-in/second-factor/totp', { code: right(), csrf_token: csrf });
    expect(locked.status).to.equal(429);
    expect(await locked.text()).to.contain('try again in 15 min');
    const failed = (await vigil.vigil.stores.events.readStream(`factors-${userId}`)).filter((e) => e.type === 'SecondFactorFailed');
    expect(failed).to.have.length(5);
    expect(failed[0]!.data).to.include({ method: 'totp', client_address: '127.0.0.1' });

    // The waiting sign-in has expired by then: the person starts again, and the right code works.
    vigil.clock.advance(15 * 60_000);
    await password('guessed@example.com');
    const again = await csrfOf(await send('GET', '/sign-in/second-factor'));
    const passed = await send('POST', '/sign-in/second-factor/totp', { code: right(), csrf_token: again });
    expect(passed.status).to.equal(303);
    expect(passed.headers.get('location')).to.equal('/');
    expect(cookies.has('vigil_session')).to.equal(true);
  });
});
