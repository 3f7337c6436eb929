/**
 * Polls `check` until it stops throwing, for effects that cross a process or a poll interval
 * (there is no clock to advance for those). Fails with the last error after `timeoutMs`.
 */
export async function eventually<T>(check: () => T | Promise<T>, timeoutMs = 3000, intervalMs = 10): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}
