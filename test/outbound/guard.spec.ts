import { expect } from 'chai';
import type { LookupAddress } from 'node:dns';
import fetch from 'node-fetch';
import { isPrivateAddress } from '../../src/outbound/addresses.js';
import { OutboundGuard, OutboundRefused, guardFor, refusalIn } from '../../src/outbound/guard.js';
import { type CountingTarget, startCountingTarget } from '../support/counting-target.js';
import { reply } from '../support/http-targets.js';
import { LOOPBACK_FORMS } from './loopback-forms.js';

/**
 * Only 127.0.0.1 is ever connected to. To play a public server, a test's resolver maps made-up
 * names to 127.0.0.1 and its classifier calls exactly 127.0.0.1 public; every other spelling of
 * loopback (::ffff:127.0.0.1 among them) stays private, so it still reaches the same listener if
 * the guard lets it through, and the count of accepted connections tells.
 */
const TEST_PUBLIC = '127.0.0.1';
const stagedIsPrivate = (address: string) => address !== TEST_PUBLIC && isPrivateAddress(address);

function stagedResolver(names: Record<string, string[]>) {
  const asked: string[] = [];
  const resolve = async (hostname: string): Promise<LookupAddress[]> => {
    asked.push(hostname);
    const addresses = names[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, asked };
}

describe('OutboundGuard', () => {
  let target: CountingTarget;
  let guards: OutboundGuard[];
  const guard = (...args: Parameters<typeof guardFor>) => {
    const made = guardFor(...args);
    guards.push(made);
    return made;
  };
  const get = (url: string, through: OutboundGuard) => fetch(url, { agent: through.fetchAgent, signal: AbortSignal.timeout(5000) });
  const failureOf = async (request: Promise<unknown>) => {
    try {
      await request;
    } catch (error) {
      return error;
    }
    throw new Error('the request went through');
  };

  beforeEach(async () => {
    guards = [];
    target = await startCountingTarget((request, response) => {
      if (request.url.startsWith('/to/')) reply(302, '', { Location: decodeURIComponent(request.url.slice('/to/'.length)) })(request, response);
      else reply(200, 'ok')(request, response);
    });
  });
  afterEach(async () => {
    for (const made of guards) made.close();
    await target.close();
  });

  describe('for deliveries under VIGIL_PRIVATE_TARGETS=checks', () => {
    for (const { host, refused } of LOOPBACK_FORMS) {
      it(`refuses ${host} without connecting, naming the address and not the URL`, async () => {
        const error = await failureOf(get(`http://${host}:${target.port}/hook?token=SECRET-TOKEN`, guard('checks', 'delivery')));
        expect(refusalIn(error)).to.equal(`refused to deliver to a private address (${refused})`);
        expect(refusalIn(error)).not.to.include('SECRET-TOKEN');
        expect(target.accepted()).to.equal(0);
      });
    }

    it('refuses a name that resolves to a private address, before connecting', async () => {
      const staged = stagedResolver({ 'hooks.test': ['::ffff:127.0.0.1'] });
      const error = await failureOf(get(`http://hooks.test:${target.port}/`, guard('checks', 'delivery', { resolve: staged.resolve, isPrivate: stagedIsPrivate })));
      expect(refusalIn(error)).to.equal('refused to deliver to a private address (::ffff:127.0.0.1)');
      expect(target.accepted()).to.equal(0);
    });

    it('refuses a name when any one of its addresses is private', async () => {
      const staged = stagedResolver({ 'mixed.test': [TEST_PUBLIC, '::ffff:127.0.0.1'] });
      const error = await failureOf(get(`http://mixed.test:${target.port}/`, guard('checks', 'delivery', { resolve: staged.resolve, isPrivate: stagedIsPrivate })));
      expect(refusalIn(error)).to.equal('refused to deliver to a private address (::ffff:127.0.0.1)');
      expect(target.accepted()).to.equal(0);
    });

    it('refuses a redirect from a public target to a private name, or to a private address in any form', async () => {
      const staged = stagedResolver({ 'public.test': [TEST_PUBLIC], 'internal.test': ['::ffff:127.0.0.1'] });
      const through = guard('checks', 'delivery', { resolve: staged.resolve, isPrivate: stagedIsPrivate });
      const allowed = await get(`http://public.test:${target.port}/fine`, through);
      expect(allowed.status).to.equal(200);
      await allowed.text();
      expect(target.seen).to.have.length(1);
      for (const next of [`http://internal.test:${target.port}/x`, `http://[::ffff:7f00:1]:${target.port}/x`, `http://0.0.0.0:${target.port}/x`, `http://localhost:${target.port}/x`]) {
        const error = await failureOf(get(`http://public.test:${target.port}/to/${encodeURIComponent(next)}`, through));
        expect(refusalIn(error), next).to.match(/^refused to deliver to a private address \(.+\)$/);
      }
      // The public target answered each redirect; nothing ever followed one to the listener.
      expect(target.seen.map((r) => r.url).filter((url) => !url.startsWith('/to/'))).to.deep.equal(['/fine']);
      expect(target.seen).to.have.length(5);
    });

    it('resolves a name once and connects to the address it checked, so a second answer cannot swap in another (DNS rebinding)', async () => {
      let answers = 0;
      const asked: string[] = [];
      const rebinding = async (hostname: string): Promise<LookupAddress[]> => {
        asked.push(hostname);
        // Public the first time, private every time after: a check-then-connect guard would be fooled.
        return (answers++ === 0 ? [{ address: TEST_PUBLIC, family: 4 }] : [{ address: '::ffff:127.0.0.1', family: 6 }]);
      };
      const through = guard('checks', 'delivery', { resolve: rebinding, isPrivate: stagedIsPrivate });
      // rebind.test resolves nowhere but through the guard, so reaching the listener at all proves
      // the connection used the guard's own answer.
      const response = await get(`http://rebind.test:${target.port}/once`, through);
      expect(response.status).to.equal(200);
      await response.text();
      expect(asked).to.deep.equal(['rebind.test']);
      expect(target.accepted()).to.equal(1);
    });

    it('fails a TLS connection to a refused address with the refusal, without connecting', async () => {
      const socket = guard('checks', 'delivery').connectTls({ host: '127.0.0.1', port: target.port, rejectUnauthorized: false });
      const error = await new Promise<Error>((resolve) => socket.once('error', resolve));
      expect(error).to.be.instanceOf(OutboundRefused);
      expect(error.message).to.equal('refused to deliver to a private address (127.0.0.1)');
      expect(target.accepted()).to.equal(0);
    });
  });

  describe('for checks', () => {
    it('reaches loopback under checks (self-hosters watch internal services) and under allow', async () => {
      for (const policy of ['checks', 'allow'] as const) {
        const response = await get(`http://2130706433:${target.port}/`, guard(policy, 'check'));
        expect(response.status, policy).to.equal(200);
        await response.text();
      }
      expect(target.seen).to.have.length(2);
    });

    it('refuses loopback under deny, as a check', async () => {
      const error = await failureOf(get(`http://127.1:${target.port}/`, guard('deny', 'check')));
      expect(refusalIn(error)).to.equal('refused to check a private address (127.0.0.1)');
      expect(target.accepted()).to.equal(0);
    });
  });

  it('lets deliveries reach loopback only under allow', async () => {
    const response = await get(`http://0x7f000001:${target.port}/`, guard('allow', 'delivery'));
    expect(response.status).to.equal(200);
    await response.text();
    await failureOf(get(`http://0x7f000001:${target.port}/`, guard('deny', 'delivery')));
    expect(target.accepted()).to.equal(1);
  });

  it('knows a literal refusal from the URL alone, and leaves names to their resolution', () => {
    const deliveries = guardFor('checks', 'delivery');
    expect(deliveries.refusalOfUrl('http://2130706433:9/x')?.target).to.equal('127.0.0.1');
    expect(deliveries.refusalOfUrl('https://[::ffff:169.254.169.254]/latest/meta-data')?.target).to.equal('::ffff:a9fe:a9fe');
    expect(deliveries.refusalOfUrl('http://api.localhost/')?.target).to.equal('api.localhost');
    expect(deliveries.refusalOfUrl('https://hooks.slack.com/services/T0/B0/X')).to.equal(null);
    expect(deliveries.refusalOfUrl('https://8.8.8.8/')).to.equal(null);
    expect(guardFor('allow', 'delivery').refusalOfUrl('http://127.0.0.1/')).to.equal(null);
    expect(guardFor('checks', 'check').refusalOfUrl('http://127.0.0.1/')).to.equal(null);
    expect(guardFor('deny', 'check').refusalOfUrl('http://127.0.0.1/')?.message).to.equal('refused to check a private address (127.0.0.1)');
  });
});
