/**
 * A loopback HTTP server that records every request it gets and answers as a test tells it to:
 * a stand-in for a webhook receiver or for Telegram's Bot API.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json(): any;
}

export type Answer = (request: ReceivedRequest) => { status: number; body?: unknown } | 'hold';

export class LoopbackReceiver {
  readonly received: ReceivedRequest[] = [];
  answer: Answer = () => ({ status: 200, body: { ok: true } });
  private readonly server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const received: ReceivedRequest = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body,
        json: () => JSON.parse(body),
      };
      this.received.push(received);
      const answer = this.answer(received);
      if (answer === 'hold') return;
      response.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body ?? {}));
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** Waits until `count` requests pass `filter`, with a generous deadline. */
  async waitFor(filter: (request: ReceivedRequest) => boolean, count = 1, deadlineMs = 30_000): Promise<ReceivedRequest[]> {
    const until = Date.now() + deadlineMs;
    for (;;) {
      const found = this.received.filter(filter);
      if (found.length >= count) return found;
      if (Date.now() > until) throw new Error(`waited for ${count} matching requests, got ${found.length} of ${this.received.length}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
