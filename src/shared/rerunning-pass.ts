/**
 * Runs `pass` one at a time for a worker woken by notifications and a timer. A wake-up while a
 * pass runs asks for one more pass after it (what woke it may have come too late for the running
 * one); a failed pass is reported, and the next wake-up tries again.
 */
export class RerunningPass {
  private running: Promise<void> | undefined;
  private again = false;
  private ended = false;

  constructor(
    private readonly pass: () => Promise<void>,
    private readonly failed: (error: unknown) => void,
  ) {}

  get stopped(): boolean {
    return this.ended;
  }

  poke(): void {
    if (this.ended) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass()
      .catch(this.failed)
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.poke();
        }
      });
  }

  /** No pass starts after this; resolves once the running one has ended. */
  async stop(): Promise<void> {
    this.ended = true;
    await this.running;
  }
}
