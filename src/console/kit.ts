import type { Router } from '@koa/router';
import type { Middleware, ParameterizedContext } from 'koa';
import type { ApiDependencies } from '../web/dependencies.js';
import type { VigilState } from '../web/state.js';
import type { Caller, Requirement } from '../domain/access/authorize.js';
import type { SignInMethod } from '../domain/identity/sign-ins.js';
import type { AuthFailureThrottle } from '../web/rate-limit.js';
import type { Html } from './html.js';
import type { SessionStore } from '../web/session-store.js';
import type { ConsoleState } from './signed-in.js';

export type { ConsoleState };

/**
 * What a group of console routes gets to register itself (`src/console/routes/*.ts`): the
 * router, the API's dependencies, the session check every page and POST goes through, and the
 * question a page asks before it shows a button (the POST is gated again by the same rule).
 */
export interface ConsoleKit {
  router: Router<VigilState>;
  deps: ApiDependencies;
  clock: () => Date;
  signedIn: Middleware<ConsoleState>;
  may: (caller: Caller, requirement: Requirement, projectId: string) => Promise<boolean>;
  catchUp: () => Promise<void>;
  /** The console's sessions (and pending sign-ins): open them only through sign-in-flow.ts. */
  sessions: SessionStore;
  /** Whether a person must pass a second factor before a session opens (second-factor-gate.ts). */
  secondFactors: SecondFactorGate;
  /** The failed-sign-in throttles, per client address (shared with the REST API) and per account. */
  signInThrottles: SignInThrottles;
  /** Told when an API key signs in (the key's "last used"); not of the requests its session makes after. */
  onKeyUsed: (userId: string, apiKeyId: string) => void;
}

/** A group of console routes beyond the core pages (sign-in, dashboard, monitor, incident). */
export type ConsoleRoutes = (kit: ConsoleKit) => void;

/**
 * Whether a person just identified must also pass a second factor before a session opens. The
 * factors feature implements it (second-factor-gate.ts); without one, nobody is asked.
 */
export interface SecondFactorGate {
  required(userId: string, method: SignInMethod): Promise<boolean>;
}

/** The throttles on failed sign-ins: per client address (the REST API's, shared by every door) and per account. */
export interface SignInThrottles {
  address: AuthFailureThrottle | null;
  account: AuthFailureThrottle | null;
  /** Told of every failure, for the failed-authentication metric. */
  onFailure: (outcome: 'refused' | 'throttled') => void;
}

/**
 * A section of the account page (`/account`), below the name, password and sessions: what a
 * feature adds about the person's own account. Each renders itself (a `<section>` with an `<h2>`
 * whose id is `id`), reading what it needs; its forms post to routes the feature registers itself
 * (`FEATURE_ROUTES` in routes.ts), under `/account/<id>/…`, and come back to `/account#<id>`.
 */
export interface AccountSection {
  id: string;
  title: string;
  render: (kit: ConsoleKit, ctx: ParameterizedContext<ConsoleState>) => Promise<Html>;
}
