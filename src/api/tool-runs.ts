import { HttpError } from '../web/errors.js';

/** Runs of the check tools one user may start per minute (in each api process). */
export const TOOL_RUNS_PER_MINUTE = 30;

const WINDOW_MS = 60_000;

/**
 * The check tools make Vigil connect, now, wherever the caller says: each user gets
 * TOOL_RUNS_PER_MINUTE runs in fixed windows on the server's clock, whichever of their keys they
 * use, so that the tools cannot be driven as a scanner. Counted in this process, as the per-key
 * rate limit is; past it, 429 with Retry-After.
 */
export class ToolRunLimit {
  /** In the order the windows began, which is the order they end: all windows are as long. */
  private readonly windows = new Map<string, { endsAt: number; runs: number }>();

  constructor(private readonly clock: () => Date) {}

  /** Counts a run for the user, or throws the 429 when it is one too many. */
  take(userId: string): void {
    const now = this.clock().getTime();
    for (const [user, window] of this.windows) {
      if (window.endsAt > now) break;
      this.windows.delete(user);
    }
    let window = this.windows.get(userId);
    if (!window) {
      window = { endsAt: now + WINDOW_MS, runs: 0 };
      this.windows.set(userId, window);
    }
    window.runs += 1;
    if (window.runs <= TOOL_RUNS_PER_MINUTE) return;
    const retryAfter = Math.max(1, Math.ceil((window.endsAt - now) / 1000));
    throw new HttpError(429, `too many check tool runs: ${TOOL_RUNS_PER_MINUTE} per minute for each user; retry after ${retryAfter} s`, null, {
      'Retry-After': String(retryAfter),
    });
  }
}
