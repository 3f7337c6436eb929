import { expect } from 'chai';
import { personWithPassword, postPasswordSignIn } from '../support/people.js';
import { TestVigil } from '../support/test-vigil.js';

const PASSWORD = 'correct horse battery staple';

/** Signing in with an email and password, over plain HTTP (the browser specs are in accounts.spec.ts). */
describe('Web console password sign-in', function () {
  this.timeout(180_000);
  let vigil: TestVigil;

  afterEach(async () => {
    await vigil?.stop();
  });

  const answerOf = (text: string) => /<div class="error-summary"[\s\S]*?<\/div>/.exec(text)?.[0] ?? '';

  it('opens a session of the person, recorded as a password sign-in, and says the same for a wrong password as for an unknown email', async () => {
    vigil = await TestVigil.start();
    const { userId } = await personWithPassword(vigil, 'ada@example.com', PASSWORD);
    const right = await postPasswordSignIn(vigil.url, 'Ada@Example.com ', PASSWORD);
    expect(right.response.status).to.equal(303);
    expect(right.response.headers.get('set-cookie')).to.match(/vigil_session=[A-Za-z0-9_-]{43}; path=\/; .*httponly/i);

    const wrong = await postPasswordSignIn(vigil.url, 'ada@example.com', 'not the password at all');
    const unknown = await postPasswordSignIn(vigil.url, 'nobody@example.com', 'not the password at all');
    expect(wrong.response.status).to.equal(401);
    expect(unknown.response.status).to.equal(401);
    expect(answerOf(wrong.text)).to.contain('Email or password is wrong');
    expect(answerOf(unknown.text)).to.equal(answerOf(wrong.text));
    // The email typed comes back in the form; nothing else differs.
    expect(unknown.text.replace(/nobody@example\.com/g, 'ada@example.com').replace(/value="[^"]{43}"/g, '')).to.equal(wrong.text.replace(/value="[^"]{43}"/g, ''));

    const record = (await vigil.vigil.stores.events.readStream(`signins-${userId}`)).map((e) => [e.type, e.data['method'], e.data['reason'] ?? null]);
    expect(record).to.deep.equal([['UserSignedIn', 'password', null], ['UserSignInFailed', 'password', 'wrong_password']]);
    const unknownRecord = await vigil.vigil.stores.events.readStream('signins-unknown');
    expect(unknownRecord.map((e) => [e.data['user_id'], e.data['reason']])).to.deep.equal([[null, 'unknown_account']]);
    expect(JSON.stringify(unknownRecord)).to.not.contain('nobody').and.to.not.contain('not the password');
  });

  it('refuses a form without the pre-session token it was given', async () => {
    vigil = await TestVigil.start();
    await personWithPassword(vigil, 'ada@example.com', PASSWORD);
    const { preSession } = await postPasswordSignIn(vigil.url, 'x@example.com', 'whatever at all');
    const forged = await postPasswordSignIn(vigil.url, 'ada@example.com', PASSWORD, { cookie: preSession.cookie, token: 'forged' });
    expect(forged.response.status).to.equal(403);
    expect(forged.response.headers.get('set-cookie') ?? '').to.not.contain('vigil_session=');
  });

  it('throttles a client address after VIGIL_AUTH_FAILURE_LIMIT failures, then refuses even the right password until the window ends', async () => {
    vigil = await TestVigil.start({ env: { VIGIL_AUTH_FAILURE_LIMIT: '3', VIGIL_AUTH_FAILURE_WINDOW_SECONDS: '60' } });
    await personWithPassword(vigil, 'ada@example.com', PASSWORD);
    for (const email of ['ada@example.com', 'bob@example.com', 'ada@example.com']) {
      expect((await postPasswordSignIn(vigil.url, email, 'wrong password here')).response.status).to.equal(401);
    }
    const fourth = await postPasswordSignIn(vigil.url, 'carol@example.com', 'wrong password here');
    expect(fourth.response.status).to.equal(429);
    expect(fourth.response.headers.get('retry-after')).to.match(/^\d+$/);
    expect(fourth.text).to.match(/Too many failed sign-ins\. Try again in \d+ s\./);
    expect((await postPasswordSignIn(vigil.url, 'ada@example.com', PASSWORD)).response.status).to.equal(429);
    vigil.clock.advance(61_000);
    expect((await postPasswordSignIn(vigil.url, 'ada@example.com', PASSWORD)).response.status).to.equal(303);
  });

  it('throttles an account after ten failures from any address, an unknown email as a known one, and no other account', async () => {
    vigil = await TestVigil.start({ env: { VIGIL_AUTH_FAILURE_LIMIT: '0' } });
    await personWithPassword(vigil, 'ada@example.com', PASSWORD);
    await personWithPassword(vigil, 'bob@example.com', PASSWORD);
    for (const email of ['ada@example.com', 'nobody@example.com']) {
      for (let i = 0; i < 10; i += 1) expect((await postPasswordSignIn(vigil.url, email, 'wrong password here')).response.status, `${email} #${i + 1}`).to.equal(401);
      const throttled = await postPasswordSignIn(vigil.url, email, 'wrong password here');
      expect(throttled.response.status, email).to.equal(429);
      expect(throttled.text).to.contain('Too many failed sign-ins');
    }
    expect((await postPasswordSignIn(vigil.url, 'ada@example.com', PASSWORD)).response.status).to.equal(429);
    expect((await postPasswordSignIn(vigil.url, 'bob@example.com', PASSWORD)).response.status).to.equal(303);
  });
});
