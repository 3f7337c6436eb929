import type { Caller } from '../domain/access/authorize.js';

/** What the middleware puts on `ctx.state` for the handlers. */
export interface VigilState {
  requestId: string;
  caller: Caller;
}
