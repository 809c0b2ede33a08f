/** A plain websocket client for the stream tests: it keeps every frame and waits for the ones asked for. */
import { createHmac } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import WebSocket from 'ws';

export type Frame = Record<string, any>;

/** Generous: only a missing frame ever takes this long, and then the test fails saying so. */
const WAIT_MS = 15_000;

export class StreamClient {
  readonly frames: Frame[] = [];
  private waiters: Array<{ test: (frame: Frame) => boolean; resolve: (frame: Frame) => void }> = [];
  readonly closed: Promise<number>;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Frame;
      this.frames.push(frame);
      this.waiters = this.waiters.filter((waiter) => {
        if (!waiter.test(frame)) return true;
        waiter.resolve(frame);
        return false;
      });
    });
    this.closed = new Promise((resolve) => socket.on('close', (code) => resolve(code)));
  }

  static async open(url: string): Promise<StreamClient> {
    const socket = new WebSocket(url);
    const client = new StreamClient(socket);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    return client;
  }

  send(frame: unknown): void {
    this.socket.send(JSON.stringify(frame));
  }

  subscribe(identifier: string): void {
    this.send({ command: 'subscribe', identifier });
  }

  /** The first frame, already received or still to come, that passes `test`. */
  next(test: (frame: Frame) => boolean, what = 'a frame'): Promise<Frame> {
    const seen = this.frames.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${what} within ${WAIT_MS} ms; got ${JSON.stringify(this.frames).slice(0, 2000)}`)), WAIT_MS);
      this.waiters.push({ test, resolve: (frame) => (clearTimeout(timer), resolve(frame)) });
    });
  }

  /** Waits for a message of this subscription whose entity equals `entity`. */
  message(identifier: string, entity: unknown): Promise<Frame> {
    return this.next((frame) => frame.identifier === identifier && isDeepStrictEqual(frame.message, entity), `message ${JSON.stringify(entity).slice(0, 200)}`);
  }

  messages(identifier: string): unknown[] {
    return this.frames.filter((frame) => frame.identifier === identifier && 'message' in frame).map((frame) => frame.message);
  }

  close(): void {
    this.socket.close();
  }
}

export function identifierFor(channel: string, apiKey: string, secret: string, signedText: string): string {
  const signature = createHmac('sha256', secret).update(signedText).digest('hex');
  return JSON.stringify({ channel, users: [{ api_key: apiKey, signature }] });
}
