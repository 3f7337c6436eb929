import type { Middleware } from 'koa';
import type { ApiDependencies } from '../web/dependencies.js';
import { MIN_POSITION_HEADER, POSITION_HEADER, minPositionOf, positionToken } from './position-token.js';
import type { VigilState } from '../web/state.js';

/**
 * What a REST request waits for before it is handled, and what its answer names.
 *
 * With Vigil-Min-Position, it waits until the read models include the positions the tokens name,
 * for up to readYourWritesTimeoutMs, and answers 503 with Retry-After past that: the client asked
 * to see a write, and an answer without it would look as if the write were lost. A token past the
 * log's head (its last events since deleted, or a token of another deployment) waits for the head.
 *
 * Without one, it waits for the log's head where that is cheap (`readsWaitForLogHead`), and only
 * briefly, going on with what it has past `catchUpWithLog`'s bound; elsewhere, not at all.
 *
 * A write's answer names the furthest position it wrote (see `settled`) in Vigil-Position.
 */
export function readYourWrites(deps: ApiDependencies, catchUpWithLog: () => Promise<void>): Middleware<VigilState> {
  const header = MIN_POSITION_HEADER.toLowerCase();
  return async (ctx, next) => {
    const wanted = minPositionOf(ctx.headers[header]);
    if (wanted !== null) await reach(deps, wanted);
    if (deps.config.readsWaitForLogHead) await catchUpWithLog();
    try {
      await next();
    } finally {
      if (ctx.state.writtenPosition !== undefined) ctx.set(POSITION_HEADER, positionToken(ctx.state.writtenPosition));
    }
  };
}

async function reach(deps: ApiDependencies, wanted: number): Promise<void> {
  // Read before the head: the usual token names a write already in the read models.
  if ((await deps.progress.committedPosition()) >= wanted) return;
  const head = await deps.commands.events.headPosition();
  await deps.progress.waitForPosition(Math.min(wanted, head), deps.config.readYourWritesTimeoutMs);
}
