/**
 * The websocket endpoint on the API's own HTTP server: `/websocket` (and `/websocket/deals`,
 * `/websocket/smart_trades`, which one published client connects to). One timer sends every
 * connection ActionCable's ping and checks that its subscriptions' keys are still valid.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { ChannelAuthorizer } from './channels.ts';
import { ConnectionLimits, DEFAULT_STREAM_LIMITS, type StreamLimits } from './connection-limits.ts';
import { StreamConnection } from './stream-connection.ts';
import type { StreamHub } from './stream-hub.ts';

export const STREAM_PATHS: ReadonlySet<string> = new Set(['/websocket', '/websocket/deals', '/websocket/smart_trades']);

export interface StreamServerOptions {
  hub: StreamHub;
  authorizer: ChannelAuthorizer;
  now: () => Date;
  /** ActionCable's heartbeat is 3 s; clients treat about 6 s of silence as a dead connection. */
  heartbeatMs?: number;
  /** Entities a connection may have waiting before the oldest waiting frame is dropped. */
  queueLimit?: number;
  /** Connections allowed in all, per client address and per API key (connection-limits.ts). */
  limits?: StreamLimits;
}

export interface StreamServer {
  readonly connections: ReadonlySet<StreamConnection>;
  /** Tells every client the server restarts, and resolves when their sockets are closed. */
  close(): Promise<void>;
}

const MAX_CLIENT_FRAME_BYTES = 64 * 1024;
const CLOSE_GRACE_MS = 1000;

export function attachStreamServer(server: Server, options: StreamServerOptions): StreamServer {
  const { hub, authorizer, now } = options;
  const queueLimit = options.queueLimit ?? 1000;
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_FRAME_BYTES });
  const connections = new Set<StreamConnection>();
  const limits = new ConnectionLimits(options.limits ?? DEFAULT_STREAM_LIMITS);

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (request.url ?? '').split('?')[0]!.replace(/\/+$/, '');
    if (!STREAM_PATHS.has(path)) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const address = request.socket.remoteAddress ?? '';
    const refused = limits.admit(address);
    if (refused !== undefined) {
      const status = refused === 429 ? '429 Too Many Requests' : '503 Service Unavailable';
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    // The place is given back once, when the socket closes, whether or not the upgrade completed.
    let holder: object = {};
    let left = false;
    const leave = () => {
      if (left) return;
      left = true;
      limits.leave(holder, address);
    };
    socket.once('close', leave);
    wss.handleUpgrade(request, socket, head, (ws) => {
      const connection = new StreamConnection(ws, hub, authorizer, queueLimit, (apiKeys) => limits.claimKeys(connection, apiKeys));
      holder = connection;
      connections.add(connection);
      ws.on('close', () => {
        connections.delete(connection);
        leave();
      });
    });
  };
  server.on('upgrade', onUpgrade);

  const heartbeat = setInterval(() => {
    const seconds = Math.floor(now().getTime() / 1000);
    for (const connection of connections) {
      connection.ping(seconds);
      void connection.recheck();
    }
  }, options.heartbeatMs ?? 3000);
  heartbeat.unref();

  return {
    connections,
    close: async () => {
      clearInterval(heartbeat);
      server.off('upgrade', onUpgrade);
      const closed = Promise.all([...wss.clients].map((ws) => new Promise((resolve) => ws.once('close', resolve))));
      for (const connection of connections) connection.disconnect('server_restart', true);
      // A client that does not answer the close handshake within the grace period is cut off.
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([closed, new Promise((resolve) => (grace = setTimeout(resolve, CLOSE_GRACE_MS)))]);
      clearTimeout(grace);
      for (const ws of wss.clients) ws.terminate();
      await new Promise((resolve) => wss.close(resolve));
    },
  };
}
