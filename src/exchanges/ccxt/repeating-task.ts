/**
 * Runs an async task again and again with a pause between the end of one run and the start of
 * the next, so runs never overlap. The timer does not keep the process alive.
 */
export class RepeatingTask {
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    private readonly task: () => Promise<void>,
    private readonly pauseMs: () => number,
  ) {}

  get active(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule();
  }

  stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.task().then(
        () => this.schedule(),
        () => this.schedule(),
      );
    }, this.pauseMs());
    this.timer.unref();
  }
}
