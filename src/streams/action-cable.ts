/**
 * The ActionCable frames 3Commas stream clients speak (docs/streams.md). Identifiers are JSON text
 * chosen by the client and echoed byte for byte, so they are kept as the strings received.
 */

export type ClientCommand = { command: 'subscribe' | 'unsubscribe'; identifier: string };

export interface ChannelRequest {
  channel: string;
  users: Array<{ apiKey: string; signature: string }>;
}

/** A client frame this server acts on, or undefined for anything else (ActionCable ignores those). */
export function parseClientFrame(text: string): ClientCommand | undefined {
  const frame = parseJson(text);
  if (!isObject(frame) || typeof frame.identifier !== 'string') return undefined;
  if (frame.command !== 'subscribe' && frame.command !== 'unsubscribe') return undefined;
  return { command: frame.command, identifier: frame.identifier };
}

/** The channel and signed users an identifier names, or undefined when it is not that shape. */
export function parseIdentifier(identifier: string): ChannelRequest | undefined {
  const parsed = parseJson(identifier);
  if (!isObject(parsed) || typeof parsed.channel !== 'string' || !Array.isArray(parsed.users) || parsed.users.length === 0) {
    return undefined;
  }
  const users: ChannelRequest['users'] = [];
  for (const user of parsed.users) {
    if (!isObject(user) || typeof user.api_key !== 'string' || typeof user.signature !== 'string') return undefined;
    users.push({ apiKey: user.api_key, signature: user.signature });
  }
  return { channel: parsed.channel, users };
}

export type DisconnectReason = 'unauthorized' | 'invalid_request' | 'server_restart' | 'remote';

export const frames = {
  welcome: () => '{"type":"welcome"}',
  ping: (unixSeconds: number) => `{"type":"ping","message":${unixSeconds}}`,
  confirm: (identifier: string) => JSON.stringify({ identifier, type: 'confirm_subscription' }),
  reject: (identifier: string) => JSON.stringify({ identifier, type: 'reject_subscription' }),
  disconnect: (reason: DisconnectReason, reconnect: boolean) => JSON.stringify({ type: 'disconnect', reason, reconnect }),
  /** `entityJson` is already JSON text: an entity is serialised once for all its subscribers. */
  message: (identifier: string, entityJson: string) => `{"identifier":${JSON.stringify(identifier)},"message":${entityJson}}`,
};

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
