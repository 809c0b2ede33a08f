/**
 * A user's notification targets: checked, their secrets sealed with the master key on the way in
 * and never shown again, and a test message sent on request.
 */
import type { SecretBox } from '../auth/secret-box.ts';
import { errors, type FieldErrors } from '../shared/errors.ts';
import { FILTERABLE_EVENTS, type NotificationEvent } from './notification-events.ts';
import type { NotificationStore, NotificationTarget, TargetChanges, TargetKind } from './notification-store.ts';
import type { OutboxHook } from './outbox-hook.ts';
import { send, type SendResult, type SenderOptions } from './senders.ts';

export interface TargetInput {
  type?: TargetKind;
  name?: string;
  url?: string;
  secret?: string;
  bot_token?: string;
  chat_id?: string | number;
  events?: string[];
  enabled?: boolean;
}

const TELEGRAM_TOKEN = /^\d{3,20}:[A-Za-z0-9_-]{20,100}$/;
const TELEGRAM_CHAT = /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{4,64})$/;
const MIN_SECRET = 16;
const MAX_TARGETS_PER_USER = 20;

export class NotificationTargetsService {
  constructor(
    private readonly store: NotificationStore,
    private readonly secrets: SecretBox,
    private readonly hook: OutboxHook,
    private readonly sender: SenderOptions,
  ) {}

  list(userId: number): Promise<NotificationTarget[]> {
    return this.store.list(userId);
  }

  async get(userId: number, id: number): Promise<NotificationTarget> {
    const target = await this.store.get(userId, id);
    if (!target) throw errors.notFound();
    return target;
  }

  async create(userId: number, input: TargetInput): Promise<NotificationTarget> {
    const kind = input.type;
    if (kind === undefined) throw errors.recordInvalid({ type: ['is required: webhook or telegram'] });
    const problems = checkFields(kind, input, true);
    if (Object.keys(problems).length > 0) throw errors.recordInvalid(problems);
    if ((await this.store.list(userId)).length >= MAX_TARGETS_PER_USER) {
      throw errors.recordInvalid({ type: [`at most ${MAX_TARGETS_PER_USER} notification targets per user`] });
    }
    const target = await this.store.insert({
      userId,
      kind,
      name: input.name ?? kind,
      url: kind === 'webhook' ? input.url! : null,
      chatId: kind === 'telegram' ? String(input.chat_id) : null,
      secretSealed: this.secrets.seal(kind === 'webhook' ? input.secret! : input.bot_token!),
      events: (input.events ?? []) as NotificationEvent[],
      enabled: input.enabled ?? true,
      createdAt: this.sender.now(),
    });
    await this.hook.refresh();
    return target;
  }

  async update(userId: number, id: number, input: TargetInput): Promise<NotificationTarget> {
    const current = await this.get(userId, id);
    if (input.type !== undefined && input.type !== current.kind) throw errors.recordInvalid({ type: ['cannot change; create a new target instead'] });
    const problems = checkFields(current.kind, input, false);
    if (Object.keys(problems).length > 0) throw errors.recordInvalid(problems);
    const secret = current.kind === 'webhook' ? input.secret : input.bot_token;
    const changes: TargetChanges = {
      ...(input.name === undefined ? {} : { name: input.name }),
      ...(input.url === undefined ? {} : { url: input.url }),
      ...(input.chat_id === undefined ? {} : { chatId: String(input.chat_id) }),
      ...(secret === undefined ? {} : { secretSealed: this.secrets.seal(secret) }),
      ...(input.events === undefined ? {} : { events: input.events as NotificationEvent[] }),
      ...(input.enabled === undefined ? {} : { enabled: input.enabled }),
    };
    const updated = await this.store.update(userId, id, changes, this.sender.now());
    if (!updated) throw errors.notFound();
    await this.hook.refresh();
    return updated;
  }

  async remove(userId: number, id: number): Promise<NotificationTarget> {
    const target = await this.get(userId, id);
    await this.store.remove(userId, id);
    await this.hook.refresh();
    return target;
  }

  /** Sends a test message now; the answer says whether the target took it. */
  async test(userId: number, id: number): Promise<SendResult> {
    const target = await this.get(userId, id);
    const notification = { id: 0, event: 'test' as const, createdAt: this.sender.now(), payload: {} };
    return send(target, this.secrets.open(target.secretSealed), notification, this.sender);
  }
}

function checkFields(kind: TargetKind, input: TargetInput, creating: boolean): FieldErrors {
  const problems: FieldErrors = {};
  const add = (field: string, message: string) => (problems[field] ??= []).push(message);
  const other = kind === 'webhook' ? ['bot_token', 'chat_id'] : ['url', 'secret'];
  for (const field of other) if (input[field as keyof TargetInput] !== undefined) add(field, `is not a setting of ${kind} targets`);
  if (kind === 'webhook') {
    if (input.url === undefined) {
      if (creating) add('url', 'is required for a webhook');
    } else if (!isHttpUrl(input.url)) add('url', 'must be an http:// or https:// URL');
    if (input.secret === undefined) {
      if (creating) add('secret', `is required for a webhook: at least ${MIN_SECRET} characters to sign deliveries with`);
    } else if (input.secret.length < MIN_SECRET) add('secret', `must be at least ${MIN_SECRET} characters`);
  } else {
    if (input.bot_token === undefined) {
      if (creating) add('bot_token', 'is required for a telegram target');
    } else if (!TELEGRAM_TOKEN.test(input.bot_token)) add('bot_token', 'is not a Telegram bot token (digits, a colon, then the secret part)');
    if (input.chat_id === undefined) {
      if (creating) add('chat_id', 'is required for a telegram target');
    } else if (!TELEGRAM_CHAT.test(String(input.chat_id))) add('chat_id', 'must be a numeric chat id or an @channel name');
  }
  const unknown = (input.events ?? []).filter((event) => !(FILTERABLE_EVENTS as readonly string[]).includes(event));
  if (unknown.length > 0) add('events', `has unknown events (${unknown.join(', ')}); known are ${FILTERABLE_EVENTS.join(', ')}`);
  return problems;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}
