import type { NotificationTarget } from '../../notifications/notification-store.ts';

/** A notification target as its owner sees it: everything but the secret, which is never shown. */
export function presentNotificationTarget(target: NotificationTarget) {
  return {
    id: target.id,
    type: target.kind,
    name: target.name,
    ...(target.kind === 'webhook' ? { url: target.url, secret_set: true } : { chat_id: target.chatId, bot_token_set: true }),
    events: target.events,
    enabled: target.enabled,
    status: target.status,
    consecutive_failures: target.consecutiveFailures,
    last_error: target.lastError,
    last_delivered_at: target.lastDeliveredAt?.toISOString() ?? null,
    created_at: target.createdAt.toISOString(),
    updated_at: target.updatedAt.toISOString(),
  };
}
