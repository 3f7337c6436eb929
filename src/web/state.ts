import type { Caller } from '../domain/access/authorize.js';

/** What the middleware puts on `ctx.state` for the handlers. */
export interface VigilState {
  requestId: string;
  caller: Caller;
  /** The furthest log position this request wrote, which its answer names in Vigil-Position. */
  writtenPosition?: number;
}
