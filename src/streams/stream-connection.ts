/**
 * One websocket client: its subscriptions (one per identifier), and its outgoing frames. Control
 * frames go out at once; entity frames wait in a bounded LatestFrameQueue and are written only
 * while the socket's own buffer is small, so a client that reads slowly holds a bounded amount of
 * memory and never slows the hub, which only enqueues.
 */
import WebSocket from 'ws';
import { type DisconnectReason, frames, parseClientFrame, parseIdentifier } from './action-cable.ts';
import type { ChannelAuthorizer, Grant } from './channels.ts';
import { LatestFrameQueue } from './latest-frame-queue.ts';
import type { StreamHub, Subscriber } from './stream-hub.ts';

/** Bytes the socket may hold unsent before entity frames wait in the queue instead. */
const SOCKET_HIGH_WATER = 64 * 1024;
/** Entity frames are encoded once as UTF-8 bytes, and still go out as text frames. */
const TEXT = { binary: false };

interface Subscription {
  grant: Grant;
  subscriber: Subscriber;
}

export class StreamConnection {
  private readonly subscriptions = new Map<string, Subscription>();
  /** Identifiers whose subscription is being checked, so a repeated subscribe is not doubled. */
  private readonly authorizing = new Set<string>();
  private readonly queue: LatestFrameQueue;
  private waitingForDrain = false;

  constructor(
    private readonly socket: WebSocket,
    private readonly hub: StreamHub,
    private readonly authorizer: ChannelAuthorizer,
    queueLimit: number,
    /** Counts this connection under the keys of a new subscription; false when a key is at its cap. */
    private readonly claimKeys: (apiKeys: string[]) => boolean = () => true,
  ) {
    this.queue = new LatestFrameQueue(queueLimit);
    socket.on('message', (data, isBinary) => {
      if (!isBinary) void this.receive(data.toString());
    });
    socket.on('close', () => this.dropSubscriptions());
    this.send(frames.welcome());
  }

  get queueStats() {
    return { waiting: this.queue.size, replaced: this.queue.replaced, dropped: this.queue.dropped };
  }

  ping(unixSeconds: number): void {
    this.send(frames.ping(unixSeconds));
  }

  /** Disconnects when a subscription's key was revoked or lost its permission since it subscribed. */
  async recheck(): Promise<void> {
    for (const { grant } of this.subscriptions.values()) {
      if (!(await this.authorizer.stillValid(grant))) {
        this.disconnect('unauthorized', false);
        return;
      }
    }
  }

  disconnect(reason: DisconnectReason, reconnect: boolean): void {
    this.send(frames.disconnect(reason, reconnect));
    this.dropSubscriptions();
    this.socket.close(1000);
  }

  private async receive(text: string): Promise<void> {
    const command = parseClientFrame(text);
    if (!command) return;
    const { identifier } = command;
    if (command.command === 'unsubscribe') {
      this.unsubscribe(identifier);
      return;
    }
    if (this.subscriptions.has(identifier) || this.authorizing.has(identifier)) return;
    this.authorizing.add(identifier);
    const request = parseIdentifier(identifier);
    const grant = request && (await this.authorizer.authorize(request));
    this.authorizing.delete(identifier);
    if (this.socket.readyState !== WebSocket.OPEN) return;
    if (!grant || !this.claimKeys(grant.users.map((user) => user.apiKey))) {
      this.send(frames.reject(identifier));
      return;
    }
    const subscriber: Subscriber = {
      push: (entityKey, message) => this.enqueue(`${identifier}\n${entityKey}`, message.frameFor(identifier)),
    };
    this.subscriptions.set(identifier, { grant, subscriber });
    for (const { userId } of grant.users) this.hub.subscribe(grant.channel, userId, subscriber);
    this.send(frames.confirm(identifier));
  }

  private unsubscribe(identifier: string): void {
    const subscription = this.subscriptions.get(identifier);
    if (!subscription) return;
    this.subscriptions.delete(identifier);
    const { grant, subscriber } = subscription;
    for (const { userId } of grant.users) this.hub.unsubscribe(grant.channel, userId, subscriber);
  }

  private dropSubscriptions(): void {
    for (const identifier of [...this.subscriptions.keys()]) this.unsubscribe(identifier);
    this.queue.clear();
  }

  private send(frame: string): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(frame);
  }

  private enqueue(key: string, frame: Buffer): void {
    this.queue.push(key, frame);
    this.pump();
  }

  private pump(): void {
    while (!this.waitingForDrain && this.socket.readyState === WebSocket.OPEN) {
      const frame = this.queue.shift();
      if (frame === undefined) return;
      if (this.socket.bufferedAmount + frame.length < SOCKET_HIGH_WATER) {
        this.socket.send(frame, TEXT);
        continue;
      }
      // The send callback runs once this frame has left for the network: then the rest follow.
      this.waitingForDrain = true;
      this.socket.send(frame, TEXT, () => {
        this.waitingForDrain = false;
        this.pump();
      });
    }
  }
}
