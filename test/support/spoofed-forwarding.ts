import { expect } from 'chai';

/**
 * The ways a client tried to escape the failed-authentication throttle by X-Forwarded-For (issue 37,
 * item 3): each a VIGIL_TRUST_PROXY setting, the loopback address the request comes from (127.0.0.1
 * stands for the proxy, 127.0.0.2 for a client that reaches Vigil past it) and the header its i-th
 * request carries.
 */
export const SPOOFS: readonly { name: string; trust: string; from: string; forwardedFor: (i: number) => string }[] = [
  { name: 'a made-up left-most address, as an appending proxy forwards it', trust: 'true', from: '127.0.0.1', forwardedFor: (i) => `198.51.100.${i}, 203.0.113.7` },
  { name: 'a value that is not an address', trust: 'true', from: '127.0.0.1', forwardedFor: (i) => `client-${i}` },
  { name: 'made-up addresses behind two listed proxies', trust: '127.0.0.1, 10.0.0.0/8', from: '127.0.0.1', forwardedFor: (i) => `2001:db8:${i}::1, 203.0.113.7, 10.0.0.5` },
  { name: 'a made-up address sent straight to Vigil, past the listed proxy', trust: '127.0.0.1', from: '127.0.0.2', forwardedFor: (i) => `198.51.100.${i}` },
];

/** 100 attempts: the first 20 (VIGIL_AUTH_FAILURE_LIMIT's default) refused as `refused`, every later one 429. */
export async function expectThrottledAfterTwenty(attempt: (i: number) => Promise<number>, refused: number): Promise<void> {
  const statuses: number[] = [];
  for (let i = 0; i < 100; i++) statuses.push(await attempt(i));
  expect(statuses).to.deep.equal([...Array<number>(20).fill(refused), ...Array<number>(80).fill(429)]);
}
