import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { expect } from 'chai';
import Koa from 'koa';
import { Router } from '@koa/router';
import type { ApiDependencies } from '../../src/web/dependencies.js';
import type { VigilState } from '../../src/web/state.js';
import { commandContext } from '../../src/app/context.js';
import type { ConsoleKit } from '../../src/console/kit.js';
import { MemorySessionStore } from '../../src/web/session-store.js';
import { hashSessionId } from '../../src/console/session.js';
import { completePendingSignIn, completeSignIn, pendingSignIn, type SecondFactorGate } from '../../src/console/sign-in-flow.js';
import type { ConsoleState } from '../../src/console/signed-in.js';
import { type EmbeddedStores, openEmbeddedStores } from '../support/embedded-stores.js';
import { TestClock } from '../support/test-vigil.js';

/**
 * The flow every sign-in method ends in, with a second-factor gate that asks (as the factors feature's
 * will): a pending sign-in first, a session only once the factor is passed.
 */
describe('Sign-in flow', () => {
  let stores: EmbeddedStores;
  let server: Server;
  let url: string;
  const sessions = new MemorySessionStore();
  const clock = new TestClock();
  const asked: string[] = [];

  before(async () => {
    stores = openEmbeddedStores();
    const router = new Router<VigilState>();
    const gate: SecondFactorGate = { required: async (userId, method) => (asked.push(`${userId}:${method}`), userId === 'u-with-factor') };
    const deps = { commands: commandContext(stores.events, { clock: clock.now }) } as unknown as ApiDependencies;
    const kit = { router, deps, clock: clock.now, sessions, secondFactors: gate, signInThrottles: { address: null, account: null, onFailure: () => {} } } as unknown as ConsoleKit;
    router.post('/identified/:userId', async (ctx) => completeSignIn(kit, ctx, { userId: ctx.params['userId']!, method: 'password', next: String(ctx.query['next'] ?? '') }));
    router.post('/sign-in/second-factor', async (ctx) => {
      const pending = await pendingSignIn(kit, ctx);
      if (!pending) {
        ctx.status = 404;
        return;
      }
      await completePendingSignIn(kit, ctx, pending, 'totp');
    });
    const app = new Koa<ConsoleState>();
    app.use(router.routes());
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Koa's callback answers its own errors
    server = createServer(app.callback()).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    await stores.dispose();
  });

  const post = (path: string, cookie = '') => fetch(`${url}${path}`, { method: 'POST', redirect: 'manual', headers: { Cookie: cookie, 'User-Agent': 'Flow spec' } });
  const cookieNamed = (response: Response, name: string) => new RegExp(`${name}=([A-Za-z0-9_-]{43})`).exec(response.headers.get('set-cookie') ?? '')?.[1] ?? null;

  it('opens a session at once when no second factor is asked, and goes only to a console path', async () => {
    const response = await post(`/identified/u-plain?next=${encodeURIComponent('//evil.example.com/')}`);
    expect(response.status).to.equal(303);
    expect(response.headers.get('location')).to.equal('/');
    const id = cookieNamed(response, 'vigil_session');
    expect(await sessions.find(hashSessionId(id!), clock.now())).to.include({ userId: 'u-plain', method: 'password', secondFactor: null, userAgent: 'Flow spec' });
    const recorded = await stores.events.readStream('signins-u-plain');
    expect(recorded.map((e) => [e.type, e.data['method'], e.data['second_factor']])).to.deep.equal([['UserSignedIn', 'password', null]]);
  });

  it('keeps a pending sign-in, not a session, when the gate asks for a second factor; passing it opens the session where it was going', async () => {
    const first = await post('/identified/u-with-factor?next=/account');
    expect(first.status).to.equal(303);
    expect(first.headers.get('location')).to.equal('/sign-in/second-factor');
    expect(cookieNamed(first, 'vigil_session')).to.equal(null);
    const pendingId = cookieNamed(first, 'vigil_pending_sign_in')!;
    expect(await sessions.find(hashSessionId(pendingId), clock.now()), 'a pending sign-in is no session').to.equal(null);
    expect(await stores.events.readStream('signins-u-with-factor')).to.deep.equal([]);
    expect(asked).to.include('u-with-factor:password');

    const passed = await post('/sign-in/second-factor', `vigil_pending_sign_in=${pendingId}`);
    expect(passed.status).to.equal(303);
    expect(passed.headers.get('location')).to.equal('/account');
    const id = cookieNamed(passed, 'vigil_session')!;
    expect(await sessions.find(hashSessionId(id), clock.now())).to.include({ userId: 'u-with-factor', method: 'password', secondFactor: 'totp' });
    expect(await sessions.findPending(hashSessionId(pendingId), clock.now())).to.equal(null);
    const recorded = await stores.events.readStream('signins-u-with-factor');
    expect(recorded.map((e) => [e.type, e.data['second_factor']])).to.deep.equal([['UserSignedIn', 'totp']]);
    // Used once: the same pending cookie opens nothing again.
    expect((await post('/sign-in/second-factor', `vigil_pending_sign_in=${pendingId}`)).status).to.equal(404);
  });

  it('lets a pending sign-in wait ten minutes, no longer', async () => {
    const first = await post('/identified/u-with-factor');
    const pendingId = cookieNamed(first, 'vigil_pending_sign_in')!;
    clock.advance(10 * 60_000 + 1);
    expect((await post('/sign-in/second-factor', `vigil_pending_sign_in=${pendingId}`)).status).to.equal(404);
  });

  it('ends the session the browser held when it signs in again (no fixation)', async () => {
    const first = cookieNamed(await post('/identified/u-plain'), 'vigil_session')!;
    const second = await post('/identified/u-other', `vigil_session=${first}`);
    expect(cookieNamed(second, 'vigil_session')).to.not.equal(first);
    expect(await sessions.find(hashSessionId(first), clock.now())).to.equal(null);
    const ended = (await stores.events.readStream('signins-u-plain')).at(-1)!;
    expect(ended.type).to.equal('UserSessionEnded');
    expect(ended.data['reason']).to.equal('replaced');
  });
});
