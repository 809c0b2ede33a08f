/**
 * Sending one notification to one target: a signed JSON POST to a webhook, or Telegram's
 * sendMessage. Failures are reported as plain text that never holds the target's secret.
 */
import { createHmac } from 'node:crypto';
import type { OutboxNotification } from './notification-events.ts';
import type { NotificationTarget } from './notification-store.ts';
import { renderText } from './templates.ts';

export const SIGNATURE_HEADER = 'X-Tradeloop-Signature';
export const TIMESTAMP_HEADER = 'X-Tradeloop-Timestamp';
export const DELIVERY_HEADER = 'X-Tradeloop-Delivery';
export const EVENT_HEADER = 'X-Tradeloop-Event';

/** A target that takes longer than this is counted as failed; the delivery is retried. */
const SEND_TIMEOUT_MS = 10_000;

export interface SendResult {
  ok: boolean;
  error?: string;
}

export interface SenderOptions {
  telegramApiUrl: string;
  now(): Date;
}

/** The webhook's body: what happened, in words and in figures. */
export function webhookBody(notification: OutboxNotification): string {
  return JSON.stringify({
    id: notification.id,
    event: notification.event,
    created_at: notification.createdAt.toISOString(),
    text: renderText(notification),
    data: notification.payload,
  });
}

/** Hex HMAC-SHA256 of `<timestamp>.<body>` with the target's secret; the timestamp stops replays. */
export function webhookSignature(secret: string, timestamp: string, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

export async function send(target: NotificationTarget, secret: string, notification: OutboxNotification, options: SenderOptions): Promise<SendResult> {
  try {
    const response = target.kind === 'webhook' ? await postWebhook(target, secret, notification, options) : await postTelegram(target, secret, notification, options);
    if (response.ok) return { ok: true };
    const detail = (await response.text().catch(() => '')).slice(0, 200);
    return { ok: false, error: hide(`HTTP ${response.status}${detail ? `: ${detail}` : ''}`, secret) };
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
    return { ok: false, error: hide(`${error instanceof Error ? error.message : String(error)}${cause}`, secret) };
  }
}

function postWebhook(target: NotificationTarget, secret: string, notification: OutboxNotification, options: SenderOptions): Promise<Response> {
  const body = webhookBody(notification);
  const timestamp = String(Math.floor(options.now().getTime() / 1000));
  return fetch(target.url!, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': 'Tradeloop-Notifications',
      [EVENT_HEADER]: notification.event,
      [DELIVERY_HEADER]: String(notification.id),
      [TIMESTAMP_HEADER]: timestamp,
      [SIGNATURE_HEADER]: `sha256=${webhookSignature(secret, timestamp, body)}`,
    },
    body,
    redirect: 'manual',
    signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
  });
}

function postTelegram(target: NotificationTarget, token: string, notification: OutboxNotification, options: SenderOptions): Promise<Response> {
  const base = options.telegramApiUrl.replace(/\/+$/, '');
  return fetch(`${base}/bot${token}/sendMessage`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ chat_id: target.chatId, text: renderText(notification), disable_web_page_preview: true }),
    redirect: 'manual',
    signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
  });
}

function hide(text: string, secret: string): string {
  return secret === '' ? text : text.split(secret).join('***');
}
