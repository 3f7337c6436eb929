import { expect } from 'chai';
import { isLocalhostName, isPrivateAddress, literalAddress } from '../../src/outbound/addresses.js';
import { LOOPBACK_FORMS } from './loopback-forms.js';

const hostOf = (host: string) => new URL(`http://${host}:8080/x`).hostname;

describe('isPrivateAddress', () => {
  for (const { host } of LOOPBACK_FORMS.filter((form) => !/localhost/i.test(form.host))) {
    it(`calls the loopback form ${host} private once a URL has parsed it`, () => {
      expect(isPrivateAddress(hostOf(host))).to.equal(true);
    });
  }

  it('calls private, shared, link-local, multicast, reserved and documentation IPv4 ranges private, at their edges', () => {
    for (const address of [
      '0.0.0.0', '0.255.255.255', '10.0.0.0', '10.255.255.255', '100.64.0.0', '100.127.255.255', '127.255.255.254', '169.254.169.254',
      '172.16.0.0', '172.31.255.255', '192.0.0.8', '192.0.2.1', '192.88.99.1', '192.168.0.1', '198.18.0.1', '198.19.255.255',
      '198.51.100.7', '203.0.113.9', '224.0.0.1', '239.255.255.250', '240.0.0.1', '255.255.255.255',
    ]) expect(isPrivateAddress(address), address).to.equal(true);
  });

  it('calls the public addresses next to those ranges public', () => {
    for (const address of ['1.1.1.1', '8.8.8.8', '9.255.255.255', '11.0.0.0', '100.63.255.255', '100.128.0.0', '126.255.255.255', '128.0.0.0',
      '169.253.255.255', '172.15.255.255', '172.32.0.0', '192.167.255.255', '192.169.0.0', '198.17.255.255', '198.20.0.0', '223.255.255.255']) {
      expect(isPrivateAddress(address), address).to.equal(false);
    }
  });

  it('calls loopback, unspecified, unique-local, link-local, site-local, multicast and documentation IPv6 private', () => {
    for (const address of ['::', '::1', '[::1]', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'fe80::1%eth0', 'fec0::1', 'ff02::1', '2001:db8::1', '100::1', '2001::1', '3fff::1']) {
      expect(isPrivateAddress(address), address).to.equal(true);
    }
  });

  it('judges IPv6 addresses that carry an IPv4 one (mapped, translated, compatible, NAT64, 6to4) by that IPv4 address', () => {
    for (const address of ['::ffff:127.0.0.1', '::ffff:7f00:1', '::FFFF:10.0.0.1', '::ffff:0:7f00:1', '::127.0.0.1', '64:ff9b::7f00:1', '64:ff9b::a9fe:a9fe', '2002:7f00:1::1', '2002:a00:1::']) {
      expect(isPrivateAddress(address), address).to.equal(true);
    }
    for (const address of ['::ffff:8.8.8.8', '::ffff:808:808', '64:ff9b::808:808', '2002:808:808::1', '2606:4700:4700::1111', '2a00:1450:4001:81b::200e']) {
      expect(isPrivateAddress(address), address).to.equal(false);
    }
  });

  it('does not judge names, which only their resolution can tell', () => {
    expect(isPrivateAddress('example.com')).to.equal(false);
    expect(isPrivateAddress('localhost')).to.equal(false);
    expect(literalAddress('example.com')).to.equal(null);
    expect(literalAddress('[::ffff:7f00:1]')).to.equal('::ffff:7f00:1');
  });
});

describe('isLocalhostName', () => {
  it('knows localhost and its subdomains in any case, with or without the final dot, and nothing else', () => {
    for (const name of ['localhost', 'LOCALHOST', 'localhost.', 'api.localhost', 'a.b.LocalHost.']) expect(isLocalhostName(name), name).to.equal(true);
    for (const name of ['localhost.example.com', 'notlocalhost', 'example.com', '127.0.0.1']) expect(isLocalhostName(name), name).to.equal(false);
  });
});
