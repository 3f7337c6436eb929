import { type LookupAddress, type LookupOptions, promises as dns } from 'node:dns';
import http, { type ClientRequestArgs } from 'node:http';
import https from 'node:https';
import { Socket, connect as netConnect } from 'node:net';
import type { Duplex } from 'node:stream';
import { type ConnectionOptions, TLSSocket, connect as tlsConnect } from 'node:tls';
import { isLocalhostName, isPrivateAddress, literalAddress } from './addresses.js';
import { type OutboundPurpose, type PrivateTargets, allowsPrivate } from './policy.js';

/** Resolves a name to every address it has, in the order to try them. */
export type Resolve = (hostname: string) => Promise<LookupAddress[]>;

export interface OutboundGuardOptions {
  purpose: OutboundPurpose;
  allowPrivate: boolean;
  /** Tests map made-up names to 127.0.0.1; by default the system resolver (getaddrinfo, as Node's own connects use). */
  resolve?: Resolve;
  /** Tests may call 127.0.0.1 public; by default isPrivateAddress. */
  isPrivate?: (address: string) => boolean;
}

/** Found in `code` of the refusal and of a fetch error wrapping it. */
export const OUTBOUND_REFUSED = 'ERR_OUTBOUND_REFUSED';

/** A connection the policy does not allow; its message names the address (never a URL, which may hold a token). */
export class OutboundRefused extends Error {
  readonly code = OUTBOUND_REFUSED;

  constructor(
    message: string,
    /** The address (or localhost name) refused. */
    readonly target: string,
  ) {
    super(message);
  }
}

const systemResolve: Resolve = (hostname) => dns.lookup(hostname, { all: true });

/**
 * The one way out for every request Vigil makes on a user's behalf: uptime checks, the check tools,
 * notification deliveries, and every redirect any of them follows. A name is resolved once, every
 * address it resolves to is checked, and the socket connects to exactly those addresses (the
 * guarded `lookup` is the socket's own), so no second resolution can swap in another address
 * (DNS rebinding). A literal address, which Node connects to without a lookup, is checked before
 * the connection is made. The SMTP server is the operator's own setting and does not pass here.
 */
export class OutboundGuard {
  private readonly resolveName: Resolve;
  private readonly isPrivate: (address: string) => boolean;
  private pooled: { http: http.Agent; https: https.Agent } | null = null;

  constructor(private readonly options: OutboundGuardOptions) {
    this.resolveName = options.resolve ?? systemResolve;
    this.isPrivate = options.isPrivate ?? isPrivateAddress;
  }

  get allowsPrivate(): boolean {
    return this.options.allowPrivate;
  }

  /**
   * Why a host is refused when that is known without asking DNS: a literal private address (URL
   * parsing has already turned 2130706433, 0x7f000001 or 127.1 into 127.0.0.1) or a localhost name.
   * Null when the host is allowed or only its resolution can tell.
   */
  refusalOfHost(host: string): OutboundRefused | null {
    if (this.options.allowPrivate) return null;
    const address = literalAddress(host);
    if (address !== null) return this.isPrivate(address) ? this.refusal(address) : null;
    return isLocalhostName(host) ? this.refusal(host.replace(/\.$/, '').toLowerCase()) : null;
  }

  /** As refusalOfHost, for a URL (WHATWG-parsed, so every spelling of an address is normalised). */
  refusalOfUrl(url: string | URL): OutboundRefused | null {
    try {
      return this.refusalOfHost((typeof url === 'string' ? new URL(url) : url).hostname);
    } catch {
      return null;
    }
  }

  /** Every address of a host, each one checked; fails if any is refused. */
  async resolve(host: string): Promise<LookupAddress[]> {
    const literal = literalAddress(host);
    const known = this.refusalOfHost(host);
    if (known) throw known;
    const addresses = literal !== null ? [{ address: literal, family: literal.includes(':') ? 6 : 4 }] : await this.resolveName(host);
    if (!this.options.allowPrivate) {
      const refused = addresses.find((a) => this.isPrivate(a.address));
      if (refused) throw this.refusal(refused.address);
    }
    return addresses;
  }

  /** A `lookup` for net, tls and http: the connection goes to the addresses it checked, and nowhere else. */
  readonly lookup = (
    hostname: string,
    options: LookupOptions,
    callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    this.resolve(hostname).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
        const first = wanted[0];
        if (!first) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname }), '');
        if (options.all) callback(null, wanted);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };

  /** A new agent of this guard, for requests that must not share sockets (an uptime check times its own). */
  agent(protocol: string, options: http.AgentOptions = {}): http.Agent {
    return protocol === 'https:' ? new GuardedHttpsAgent(this, options) : new GuardedHttpAgent(this, options);
  }

  /** For node-fetch's `agent`: pooled, keep-alive agents (as Node's global ones), chosen per URL so redirects across schemes work. */
  readonly fetchAgent = (url: URL): http.Agent => {
    this.pooled ??= {
      http: new GuardedHttpAgent(this, { keepAlive: true, timeout: 5000 }),
      https: new GuardedHttpsAgent(this, { keepAlive: true, timeout: 5000 }),
    };
    return url.protocol === 'https:' ? this.pooled.https : this.pooled.http;
  };

  /** tls.connect through the guard; a refused literal address fails as the socket's 'error', as a refused name does. */
  connectTls(options: ConnectionOptions & { host: string }): TLSSocket {
    const refused = this.refusalOfHost(options.host);
    if (refused) {
      const socket = new TLSSocket(new Socket());
      process.nextTick(() => socket.destroy(refused));
      return socket;
    }
    return tlsConnect({ ...options, lookup: this.lookup });
  }

  /** net.connect through the guard (a TCP uptime check); a refused address fails as the socket's 'error', as with connectTls. */
  connectTcp(options: { host: string; port: number }): Socket {
    const refused = this.refusalOfHost(options.host);
    if (refused) {
      const socket = new Socket();
      process.nextTick(() => socket.destroy(refused));
      return socket;
    }
    return netConnect({ ...options, lookup: this.lookup });
  }

  /** Closes the pooled agents' idle sockets. */
  close(): void {
    this.pooled?.http.destroy();
    this.pooled?.https.destroy();
    this.pooled = null;
  }

  private refusal(address: string): OutboundRefused {
    const what = this.options.purpose === 'check' ? 'refused to check' : 'refused to deliver to';
    return new OutboundRefused(`${what} a private address (${address})`, address);
  }
}

/** The guard for one purpose under the deployment's policy. */
export function guardFor(policy: PrivateTargets, purpose: OutboundPurpose, overrides: Pick<OutboundGuardOptions, 'resolve' | 'isPrivate'> = {}): OutboundGuard {
  return new OutboundGuard({ purpose, allowPrivate: allowsPrivate(policy, purpose), ...overrides });
}

/**
 * The refusal behind an error, if the guard refused: the error itself, or a fetch error that
 * wraps it (node-fetch keeps the code and appends the cause's message after "reason: ").
 */
export function refusalIn(error: unknown): string | null {
  if (error instanceof OutboundRefused) return error.message;
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== OUTBOUND_REFUSED || typeof message !== 'string') return null;
  const at = message.lastIndexOf('reason: ');
  return at >= 0 ? message.slice(at + 'reason: '.length) : 'refused to connect to a private address';
}

function guardedConnection<T extends Duplex | null | undefined>(
  guard: OutboundGuard,
  options: ClientRequestArgs,
  callback: ((error: Error | null, stream: Duplex) => void) | undefined,
  connect: () => T,
): T | undefined {
  // A Unix socket is this machine too.
  const refused = options.socketPath ? guard.refusalOfHost('localhost') : guard.refusalOfHost(options.host ?? options.hostname ?? 'localhost');
  if (refused) {
    callback?.(refused, undefined as unknown as Duplex);
    return undefined;
  }
  return connect();
}

class GuardedHttpAgent extends http.Agent {
  constructor(private readonly guard: OutboundGuard, options: http.AgentOptions) {
    // Agent options win over request options in every connection the agent makes.
    super({ ...options, lookup: guard.lookup });
  }

  override createConnection(options: ClientRequestArgs, callback?: (error: Error | null, stream: Duplex) => void): Duplex | null | undefined {
    return guardedConnection(this.guard, options, callback, () => super.createConnection(options, callback));
  }
}

class GuardedHttpsAgent extends https.Agent {
  constructor(private readonly guard: OutboundGuard, options: https.AgentOptions) {
    super({ ...options, lookup: guard.lookup });
  }

  override createConnection(options: ClientRequestArgs, callback?: (error: Error | null, stream: Duplex) => void): Duplex | null | undefined {
    return guardedConnection(this.guard, options, callback, () => super.createConnection(options, callback));
  }
}
