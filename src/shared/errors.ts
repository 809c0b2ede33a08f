/**
 * The one error catalogue. Every failure the API reports is an ApiError built here, and the HTTP
 * layer renders it as the reference service's body: {error, error_description, error_attributes?}.
 * Codes, statuses and descriptions follow the reference service where it documents them.
 */

export type FieldErrors = Record<string, string[]>;

export interface ErrorBody {
  error: string;
  error_description?: string;
  error_attributes?: FieldErrors;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly description: string | undefined;
  readonly attributes: FieldErrors | undefined;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: string,
    description?: string,
    attributes?: FieldErrors,
    headers: Record<string, string> = {},
  ) {
    super(description ? `${code}: ${description}` : code);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.description = description;
    this.attributes = attributes;
    this.headers = headers;
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { error: this.code };
    if (this.description !== undefined) body.error_description = this.description;
    if (this.attributes !== undefined) body.error_attributes = this.attributes;
    return body;
  }
}

/** Storage cannot be reached (a lost connection that did not come back); the request may be retried. */
export class StorageUnavailableError extends Error {
  override readonly name = 'StorageUnavailableError';
}

export const errors = {
  /** The reference's codes and descriptions, followed by which part failed. */
  apiKeyInvalid: (detail: string) =>
    new ApiError(401, 'api_key_invalid_or_expired', `Unauthorized. Invalid or expired api key. ${detail}`),
  signatureInvalid: (detail: string) => new ApiError(401, 'signature_invalid', `Provided signature is invalid. ${detail}`),
  permissionDenied: () =>
    new ApiError(403, 'Forbidden', 'Api key not authorized for this action'),
  accountNotOwned: () => new ApiError(403, 'Forbidden', 'Account not owned by current user.'),
  forbidden: (description?: string) => new ApiError(403, 'Forbidden', description),
  forcedModeInvalid: () =>
    new ApiError(
      400,
      'forced_mode_invalid',
      "Forced mode is not included in the ['real', 'paper']",
    ),
  notFound: () => new ApiError(404, 'not_found', 'Not Found'),
  /** A reference endpoint this server does not serve (src/http/unsupported-routes.ts). */
  notImplemented: (route: string, reason: string) =>
    new ApiError(501, 'not_implemented', `${route} is a reference endpoint this server does not serve (${reason}); see docs/api-compatibility.md`),
  recordInvalid: (attributes: FieldErrors, status = 400) =>
    new ApiError(status, 'record_invalid', 'Invalid parameters', attributes),
  invalidRequest: (description: string) => new ApiError(400, 'invalid_request', description),
  payloadTooLarge: (limitBytes: number) =>
    new ApiError(413, 'payload_too_large', `Request body is larger than ${limitBytes} bytes`),
  unsupportedMediaType: (contentType: string) =>
    new ApiError(
      415,
      'unsupported_media_type',
      `Content-Type ${contentType} is not supported; send application/json or application/x-www-form-urlencoded`,
    ),
  rateLimited: (retryAfterSeconds: number) =>
    new ApiError(
      429,
      'rate_limit_exceeded',
      `Too many requests; retry in ${retryAfterSeconds} seconds`,
      undefined,
      { 'Retry-After': String(retryAfterSeconds) },
    ),
  failedAuthenticationsLimited: (retryAfterSeconds: number) =>
    new ApiError(
      429,
      'rate_limit_exceeded',
      `Too many failed authentications from this address; retry in ${retryAfterSeconds} seconds`,
      undefined,
      { 'Retry-After': String(retryAfterSeconds) },
    ),
  unknown: () => new ApiError(500, 'unknown_error', 'Unknown error occurred'),
  /** The database stopped answering; the server keeps retrying and recovers by itself. */
  databaseUnavailable: () =>
    new ApiError(503, 'service_unavailable', 'The database is unavailable; retry in a few seconds', undefined, { 'Retry-After': '5' }),
  /** Several servers share the database and no engine here may run the account right now. */
  accountRunElsewhere: () =>
    new ApiError(503, 'service_unavailable', 'Another engine runs this account; retry in a few seconds', undefined, { 'Retry-After': '5' }),
  masterKeyMismatch: () =>
    new ApiError(
      500,
      'master_key_mismatch',
      'Stored secrets cannot be decrypted with the configured master key (TRADELOOP_MASTER_KEY or DATA_DIR/master.key changed)',
    ),
  /** DCA bot endpoints answer an unknown bot this way (reference: bot show). */
  dcaBotNotFound: () => new ApiError(404, 'Not found'),
  /** A manual safety order that cannot be cancelled (reference: deals cancel_order). */
  cantBeCancelled: () => new ApiError(422, 'Cant be cancelled'),
  /** update_deal on a deal that can no longer be edited (reference: base "Can't be edit"). */
  dealNotEditable: () => new ApiError(400, 'record_invalid', 'Invalid parameters', { base: ["Can't be edit"] }),
  unprocessable: (description: string) => new ApiError(422, 'unprocessable_entity', description),
  /** Grid required_balances for a bot whose lines carry no sides (reference: 500). */
  gridLinesNotMarked: () => new ApiError(500, 'grid_lines_not_marked', 'Grid lines empty or not marked'),
  /** Unknown or foreign SmartTrade: 404, or 400 where the reference documents it (cancel). */
  smartTradeNotFound: (status = 404) => new ApiError(status, 'Not found', 'Smart Trade not found'),
  /** A SmartTrade action its status does not allow (reference: reduce funds in the wrong status). */
  smartTradeWrongStatus: (action: string) => new ApiError(400, 'Wrong param(s)', `${action} is not allowed in the current status`),
  /** A sub-trade of a SmartTrade that does not exist. */
  subTradeNotFound: () => new ApiError(404, 'Not found', 'Trade not found'),
  /** Trades ver1 cancel, and a SmartTrade sub-trade that cannot be cancelled. */
  tradeCannotBeCancelled: () => new ApiError(400, 'unprocessable_entity', 'Trade cannot be cancelled'),
  tradeCannotBeClosed: () => new ApiError(400, 'unprocessable_entity', 'Trade cannot be closed at market'),
  /** TradingView signals (docs/signals.md): a token that is not the bot's, or a refused sender. */
  signalTokenInvalid: () => new ApiError(401, 'email_token_invalid', 'The email_token is not the token of this bot'),
  signalSignatureInvalid: () => new ApiError(401, 'signature_invalid', 'The Signature header is not the HMAC-SHA256 of the body with the signal secret'),
  signalSenderRefused: () => new ApiError(403, 'Forbidden', 'Signals are not accepted from this address (SIGNAL_ALLOWED_IPS)'),
} as const;

/** Validation errors collected field by field, keyed the way the reference names fields. */
export class FieldErrorCollector {
  private readonly collected: FieldErrors = {};

  add(field: string, message: string): void {
    // Defined, not assigned, so a field called `constructor` or `__proto__` is a field like any other.
    if (!Object.hasOwn(this.collected, field)) {
      Object.defineProperty(this.collected, field, { value: [], enumerable: true, writable: true, configurable: true });
    }
    const messages = this.collected[field]!;
    if (!messages.includes(message)) messages.push(message);
  }

  get isEmpty(): boolean {
    return Object.keys(this.collected).length === 0;
  }

  throwIfAny(status = 400): void {
    if (!this.isEmpty) throw errors.recordInvalid(this.collected, status);
  }
}
