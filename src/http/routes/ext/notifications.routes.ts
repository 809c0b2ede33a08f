/** The caller's notification targets (docs/notifications.md): webhooks and Telegram chats. */
import Type from 'typebox';
import { FILTERABLE_EVENTS } from '../../../notifications/notification-events.ts';
import type { NotificationTargetsService } from '../../../notifications/targets.service.ts';
import { presentNotificationTarget } from '../../presenters/notification-target.presenter.ts';
import { defineRoute } from '../../route.ts';
import { Id } from '../../schemas/common.ts';

const Fields = {
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  url: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'webhook: where to POST' })),
  secret: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'webhook: the HMAC-SHA256 signing secret; stored encrypted, never returned' })),
  bot_token: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'telegram: the bot token; stored encrypted, never returned' })),
  chat_id: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Integer()], { description: 'telegram: chat id or @channel' })),
  events: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { maxItems: 20, description: `any of ${FILTERABLE_EVENTS.join(', ')}; empty or absent: all` })),
  enabled: Type.Optional(Type.Boolean()),
};

const Kind = Type.Union([Type.Literal('webhook'), Type.Literal('telegram')]);

const tags = ['ext'];

export const notificationRoutes = (targets: NotificationTargetsService) => [
  defineRoute({
    method: 'GET',
    url: '/ext/notifications',
    summary: "The caller's notification targets, with their delivery status; secrets are never shown",
    tags,
    handler: async ({ caller }) => (await targets.list(caller.userId)).map(presentNotificationTarget),
  }),
  defineRoute({
    method: 'POST',
    url: '/ext/notifications',
    summary: 'Add a notification target: a webhook (url, secret) or a Telegram chat (bot_token, chat_id)',
    tags,
    input: Type.Object({ type: Type.Optional(Kind), ...Fields }),
    successStatus: 201,
    handler: async ({ input, caller }) => presentNotificationTarget(await targets.create(caller.userId, input)),
  }),
  defineRoute({
    method: 'GET',
    url: '/ext/notifications/:id',
    summary: 'One notification target',
    tags,
    input: Type.Object({ id: Id }),
    handler: async ({ input, caller }) => presentNotificationTarget(await targets.get(caller.userId, input.id)),
  }),
  defineRoute({
    method: 'PATCH',
    url: '/ext/notifications/:id',
    summary: 'Change a notification target; a change makes a failing target active again',
    tags,
    input: Type.Object({ id: Id, type: Type.Optional(Kind), ...Fields }),
    handler: async ({ input, caller }) => {
      const { id, ...changes } = input;
      return presentNotificationTarget(await targets.update(caller.userId, id, changes));
    },
  }),
  defineRoute({
    method: 'DELETE',
    url: '/ext/notifications/:id',
    summary: 'Remove a notification target; what was not yet delivered to it is dropped',
    tags,
    input: Type.Object({ id: Id }),
    handler: async ({ input, caller }) => presentNotificationTarget(await targets.remove(caller.userId, input.id)),
  }),
  defineRoute({
    method: 'POST',
    url: '/ext/notifications/:id/test',
    summary: 'Send a test message to the target now and tell whether it was accepted',
    tags,
    input: Type.Object({ id: Id }),
    handler: async ({ input, caller }) => {
      const result = await targets.test(caller.userId, input.id);
      return result.ok ? { delivered: true } : { delivered: false, error: result.error };
    },
  }),
];
