/**
 * LISTEN on one channel over a connection of its own (not the pool's: it is held for good, and
 * the pool's connections are all needed for transactions). A connection that is lost is made
 * again with growing pauses; `onResumed` then says that notifications may have been missed.
 */
import pg from 'pg';
import type { NotifyHandlers } from './database.ts';

const RETRY_DELAYS_MS = [250, 500, 1000, 2000, 5000];

export class PostgresListener {
  private client: pg.Client | undefined;
  private stopped = false;
  private reconnecting = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly channel: string,
    private readonly handlers: NotifyHandlers,
    private readonly retryDelaysMs: readonly number[] = RETRY_DELAYS_MS,
  ) {
    if (!/^[a-z_]+$/.test(channel)) throw new Error(`Not a channel name: ${channel}`);
  }

  /** Resolves once listening; rejects when the first connection fails. */
  async start(): Promise<void> {
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client(this.config);
    client.on('notification', (message) => {
      if (message.channel === this.channel) this.handlers.onNotify(message.payload ?? '');
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
  }

  private lost(client: pg.Client): void {
    if (this.stopped || this.reconnecting || client !== this.client) return;
    this.reconnecting = true;
    this.retry(0);
  }

  private retry(attempt: number): void {
    const delay = this.retryDelaysMs[Math.min(attempt, this.retryDelaysMs.length - 1)]!;
    this.timer = setTimeout(() => {
      this.connect().then(
        () => {
          this.reconnecting = false;
          if (!this.stopped) this.handlers.onResumed();
        },
        () => {
          if (!this.stopped) this.retry(attempt + 1);
        },
      );
    }, delay);
    this.timer.unref();
  }
}
