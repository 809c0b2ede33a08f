/**
 * POST /trade_signal/trading_view (also served at the reference's own path, outside /public/api):
 * TradingView custom signals for DCA bots (docs/signals.md). The body's email_token is the
 * credential. Before the body is read, a sender not in SIGNAL_ALLOWED_IPS (when set) is refused,
 * and so is one that failed too often; when SIGNAL_HMAC_SECRET is set, the Signature header must
 * be the HMAC of the body.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { SignalConfig } from '../../config/config.ts';
import { MAX_DELAY_SECONDS, SIGNAL_ACTIONS, type SignalInput } from '../../signals/signal-body.ts';
import type { SignalsService } from '../../signals/signals.service.ts';
import { ApiError, errors } from '../../shared/errors.ts';
import { FailedAuthLimit } from '../plugins/failed-auth-limit.ts';
import { API_PREFIX, defineRoute, type RouteDefinition } from '../route.ts';
import { Id, oneOf } from '../schemas/common.ts';
import { DecimalText } from '../schemas/dca-bot.ts';

export const SIGNAL_PATH = '/trade_signal/trading_view';
/** Wrong tokens, unknown bots and bad signatures a sender may send per minute before 429. */
const FAILURES_PER_MINUTE = 10;

const TradingViewSignal = Type.Object({
  message_type: Type.Optional(Type.String({ maxLength: 20 })),
  bot_id: Id,
  email_token: Type.String({ minLength: 1, maxLength: 100 }),
  delay_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_DELAY_SECONDS })),
  pair: Type.Optional(Type.String({ maxLength: 41 })),
  action: Type.Optional(oneOf(SIGNAL_ACTIONS)),
  volume: Type.Optional(DecimalText),
});

export interface SignalRouteDeps {
  signals: SignalsService;
  config: SignalConfig;
  now(): Date;
}

/** Registers the sender checks on `app` and answers the route to register. */
export function tradeSignalRoutes(app: FastifyInstance, deps: SignalRouteDeps): RouteDefinition[] {
  const failures = new FailedAuthLimit(FAILURES_PER_MINUTE, () => deps.now().getTime());
  const isSignal = (request: FastifyRequest) => request.routeOptions.url === `${API_PREFIX}${SIGNAL_PATH}`;
  app.addHook('onRequest', async (request) => {
    if (!isSignal(request)) return;
    const { allowedIps } = deps.config;
    if (allowedIps.length > 0 && !allowedIps.includes(senderOf(request))) throw errors.signalSenderRefused();
    const wait = failures.retryAfter(senderOf(request));
    if (wait > 0) throw errors.failedAuthenticationsLimited(wait);
  });
  app.addHook('preHandler', async (request) => {
    const secret = deps.config.hmacSecret;
    if (!isSignal(request) || secret === undefined) return;
    if (!signedBy(secret, request.rawBody ?? Buffer.alloc(0), request.headers.signature)) {
      failures.recordFailure(senderOf(request));
      throw errors.signalSignatureInvalid();
    }
  });
  return [
    defineRoute({
      method: 'POST',
      url: SIGNAL_PATH,
      summary: 'A TradingView custom signal for a DCA bot: start a deal, close at market, add funds',
      tags: ['signals'],
      input: TradingViewSignal,
      handler: async ({ input, request }) => {
        try {
          return await deps.signals.receive(input as SignalInput, senderOf(request));
        } catch (error) {
          if (error instanceof ApiError && (error.status === 401 || error.status === 404)) failures.recordFailure(senderOf(request));
          throw error;
        }
      },
    }),
  ];
}

/** The reference's path, outside /public/api, leads to the same route. */
export function signalPathRewrite(url: string): string {
  return url === SIGNAL_PATH || url.startsWith(`${SIGNAL_PATH}?`) ? `${API_PREFIX}${url}` : url;
}

/** IPv4 senders on a dual-stack socket show as ::ffff:a.b.c.d. */
function senderOf(request: FastifyRequest): string {
  return request.ip.startsWith('::ffff:') ? request.ip.slice(7) : request.ip;
}

function signedBy(secret: string, body: Buffer, header: string | string[] | undefined): boolean {
  if (typeof header !== 'string' || !/^[0-9a-fA-F]{64}$/.test(header)) return false;
  return timingSafeEqual(createHmac('sha256', secret).update(body).digest(), Buffer.from(header, 'hex'));
}
