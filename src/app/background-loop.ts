/**
 * A role's work loop: run `tick`, sleep for what `pause` says, again, until stopped. A failed
 * tick is reported and the loop goes on; `stop` wakes a sleeping loop and waits for the tick in
 * progress to finish, so a shutdown never cuts a command in half.
 */
export class BackgroundLoop {
  private running: Promise<void> | null = null;
  private stopping = false;
  private wake: (() => void) | null = null;

  constructor(
    private readonly tick: () => Promise<unknown>,
    private readonly pause: () => Promise<number> | number,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(): void {
    this.running = (async () => {
      while (!this.stopping) {
        try {
          await this.tick();
        } catch (error) {
          this.onError(error);
        }
        if (this.stopping) break;
        const ms = await Promise.resolve(this.pause()).catch(() => 1000);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, ms);
          const self = this;
          function done() {
            clearTimeout(timer);
            self.wake = null;
            resolve();
          }
          this.wake = done;
        });
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.running;
  }
}
