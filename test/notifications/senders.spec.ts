import { expect } from 'chai';
import type { LookupAddress } from 'node:dns';
import { pageMessage } from '../../src/notifications/message.js';
import { type DeliveryContext, DeliveryError, deliver } from '../../src/notifications/senders.js';
import { isPrivateAddress } from '../../src/outbound/addresses.js';
import { type OutboundGuard, guardFor } from '../../src/outbound/guard.js';
import type { PrivateTargets } from '../../src/outbound/policy.js';
import { type CountingTarget, startCountingTarget } from '../support/counting-target.js';
import { reply } from '../support/http-targets.js';
import { LOOPBACK_FORMS } from '../outbound/loopback-forms.js';
import { URL_CHANNELS } from './url-channels.js';

const message = () =>
  pageMessage({
    pageId: 'page-1', channelId: 'channel-1', reason: 'opened', incidentId: 'incident-1', projectId: 'project-1', incident: null, monitor: null,
    occurredAt: '2026-11-21T12:00:00.000Z',
  });

describe('deliver', () => {
  let target: CountingTarget;
  let guards: OutboundGuard[];
  const context = (policy: PrivateTargets, overrides: Parameters<typeof guardFor>[2] = {}): DeliveryContext => {
    const outbound = guardFor(policy, 'delivery', overrides);
    guards.push(outbound);
    return { timeoutMs: 5000, smtp: null, outbound, now: () => new Date('2026-11-21T12:00:00.000Z') };
  };
  const failureOf = async (delivery: Promise<void>): Promise<DeliveryError> => {
    try {
      await delivery;
    } catch (error) {
      if (error instanceof DeliveryError) return error;
      throw error;
    }
    throw new Error('delivered');
  };

  beforeEach(async () => {
    guards = [];
    target = await startCountingTarget((request, response) => {
      if (request.url.startsWith('/moved/')) reply(307, '', { Location: `http://[::ffff:127.0.0.1]:${target.port}/landed` })(request, response);
      else reply(200, 'ok')(request, response);
    });
  });
  afterEach(async () => {
    for (const guard of guards) guard.close();
    await target.close();
  });

  for (const channel of URL_CHANNELS) {
    describe(`to a ${channel.type} channel under VIGIL_PRIVATE_TARGETS=checks`, () => {
      it('refuses every spelling of loopback without connecting, as a final failure naming the address', async () => {
        for (const { host, refused } of LOOPBACK_FORMS) {
          const error = await failureOf(deliver(channel.type, channel.config(`http://${host}:${target.port}`), message(), context('checks')));
          expect(error.message, host).to.equal(`refused to deliver to a private address (${refused})`);
          expect(error.final, host).to.equal(true);
        }
        expect(target.accepted()).to.equal(0);
      });

      it('refuses a name that resolves to a private address, without connecting', async () => {
        const resolve = async (): Promise<LookupAddress[]> => [{ address: '127.0.0.1', family: 4 }];
        const error = await failureOf(deliver(channel.type, channel.config(`http://hooks.test:${target.port}`), message(), context('checks', { resolve })));
        expect(error.message).to.equal('refused to deliver to a private address (127.0.0.1)');
        expect(target.accepted()).to.equal(0);
      });
    });
  }

  it('reaches a receiver on loopback under VIGIL_PRIVATE_TARGETS=allow, for every URL-taking type', async () => {
    for (const channel of URL_CHANNELS) await deliver(channel.type, channel.config(`http://2130706433:${target.port}`), message(), context('allow'));
    expect(target.seen).to.have.length(URL_CHANNELS.length);
  });

  it('refuses an ntfy server that redirects a page to a private address, after the allowed first hop', async () => {
    // public.test plays a public server: it is 127.0.0.1, which this test's classifier calls public.
    const outbound = context('checks', {
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
      isPrivate: (address) => address !== '127.0.0.1' && isPrivateAddress(address),
    });
    const error = await failureOf(deliver('NTFY', { topic: 'alerts', server: `http://public.test:${target.port}/moved` }, message(), outbound));
    expect(error.message).to.equal('refused to deliver to a private address (::ffff:7f00:1)');
    expect(target.seen.map((r) => r.url)).to.deep.equal(['/moved/alerts']);
  });
});
