import { expect } from 'chai';
import type { IncomingMessage } from 'node:http';
import { type TrustedProxies, clientAddressResolver, parseTrustedProxies } from '../../src/web/client-address.js';

const requestFrom = (peer: string, forwardedFor?: string) =>
  ({ socket: { remoteAddress: peer }, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } }) as unknown as IncomingMessage;

const clientOf = (setting: string, peer: string, forwardedFor?: string) => {
  const trusted = parseTrustedProxies(setting) as TrustedProxies;
  return clientAddressResolver(trusted)(requestFrom(peer, forwardedFor));
};

describe('clientAddressResolver', () => {
  describe('with no proxy trusted (VIGIL_TRUST_PROXY=false)', () => {
    it('is the socket peer, whatever X-Forwarded-For claims', () => {
      expect(clientOf('false', '198.51.100.4', '203.0.113.7')).to.equal('198.51.100.4');
      expect(clientOf('', '198.51.100.4', '203.0.113.7')).to.equal('198.51.100.4');
    });
  });

  describe('with one trusted hop (VIGIL_TRUST_PROXY=true)', () => {
    it('is the address the proxy appended, not what the client wrote left of it', () => {
      expect(clientOf('true', '10.0.0.2', '203.0.113.7')).to.equal('203.0.113.7');
      expect(clientOf('true', '10.0.0.2', '192.0.2.99, 203.0.113.7')).to.equal('203.0.113.7');
      expect(clientOf('true', '10.0.0.2', ' 192.0.2.99 ,2001:db8::7 ')).to.equal('2001:db8::7');
    });

    it('stops at the proxy before an entry that is not an IP address', () => {
      for (const claimed of ['not-an-ip', 'unknown', '203.0.113.7:4711', '[2001:db8::1]', '', '192.0.2.1, ']) {
        expect(clientOf('true', '10.0.0.2', claimed), claimed).to.equal('10.0.0.2');
      }
    });

    it('is the peer when the proxy sent no X-Forwarded-For', () => {
      expect(clientOf('true', '10.0.0.2')).to.equal('10.0.0.2');
    });
  });

  describe('with a hop count', () => {
    it('passes that many proxies from the right', () => {
      expect(clientOf('2', '10.0.0.2', '192.0.2.99, 203.0.113.7, 10.0.0.9')).to.equal('203.0.113.7');
      expect(clientOf('3', '10.0.0.2', '192.0.2.99, 203.0.113.7, 10.0.0.9')).to.equal('192.0.2.99');
      // Fewer hops than trusted: the left-most, as Express answers.
      expect(clientOf('3', '10.0.0.2', '203.0.113.7')).to.equal('203.0.113.7');
    });
  });

  describe('with a list of proxy addresses and ranges', () => {
    const setting = '10.0.0.0/8, 127.0.0.1, 2001:db8:ffff::/48';

    it('passes every hop whose address is listed, and no other', () => {
      expect(clientOf(setting, '127.0.0.1', '192.0.2.99, 203.0.113.7, 10.1.2.3')).to.equal('203.0.113.7');
      expect(clientOf(setting, '2001:db8:ffff::1', '192.0.2.99, 203.0.113.7')).to.equal('203.0.113.7');
      // The proxy's IPv4 address as a dual-stack socket reports it.
      expect(clientOf(setting, '::ffff:10.9.9.9', '192.0.2.99, 203.0.113.7')).to.equal('203.0.113.7');
    });

    it('is the peer itself when the peer is not a listed proxy, whatever it claims', () => {
      expect(clientOf(setting, '198.51.100.4', '203.0.113.7')).to.equal('198.51.100.4');
      expect(clientOf(setting, '127.0.0.2', '10.0.0.1, 203.0.113.7')).to.equal('127.0.0.2');
    });

    it('stops before an entry that is not an IP address', () => {
      expect(clientOf(setting, '127.0.0.1', '203.0.113.7, garbage, 10.0.0.1')).to.equal('10.0.0.1');
    });

    it('knows loopback, linklocal and uniquelocal by name', () => {
      expect(clientOf('loopback, uniquelocal', '::1', '203.0.113.7, 192.168.1.1')).to.equal('203.0.113.7');
      expect(clientOf('linklocal', 'fe80::1', '203.0.113.7')).to.equal('203.0.113.7');
    });
  });
});

describe('parseTrustedProxies', () => {
  it('reads false, true, a hop count and a list', () => {
    expect(parseTrustedProxies('false')).to.deep.equal({ hops: 0 });
    expect(parseTrustedProxies('true')).to.deep.equal({ hops: 1 });
    expect(parseTrustedProxies('2')).to.deep.equal({ hops: 2 });
    expect(parseTrustedProxies('10.0.0.0/8, ::1,Loopback')).to.deep.equal({ ranges: ['10.0.0.0/8', '::1', 'loopback'] });
  });

  it('names what it cannot read', () => {
    expect(parseTrustedProxies('11')).to.deep.equal({ error: 'a hop count is 0 to 10, got 11' });
    for (const bad of ['10.0.0.0/33', 'proxy.internal', '::1/129', '10.0.0.0/8/1', '10.0.0.0/']) {
      expect(parseTrustedProxies(`127.0.0.1,${bad}`), bad).to.deep.equal({ error: `${bad} is not an IP address, a CIDR range, loopback, linklocal or uniquelocal` });
    }
    expect(parseTrustedProxies('127.0.0.1,,10.0.0.1')).to.deep.equal({ error: 'an empty entry is not an IP address, a CIDR range, loopback, linklocal or uniquelocal' });
  });
});
