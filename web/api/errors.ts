/** What went wrong with an API call, in words a person can act on. Never a stack trace. */
import { ACCESS_TABLE } from '../../src/http/access-table.ts';

export type FieldErrors = Record<string, string[]>;

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly fields: FieldErrors = {},
  ) {
    super(message);
  }
}

/** The permission the API's access table gives a call, e.g. BOTS_WRITE for POST /ver1/grid_bots/7/enable. */
export function permissionFor(method: string, path: string): string | undefined {
  for (const [route, access] of Object.entries(ACCESS_TABLE)) {
    const [routeMethod, pattern] = route.split(' ') as [string, string];
    if (routeMethod !== method) continue;
    const regex = new RegExp(`^${pattern.replace(/:\w+/g, '[^/]+')}$`);
    if (regex.test(path)) return access.permission;
  }
  return undefined;
}

const lacking = (permission: string, method: string, path: string) =>
  `This key lacks the ${permission} permission, which ${method} ${path} needs.`;

/** The refusal the server would give when the key lacks the call's permission. */
export function missingPermission(granted: string[], method: string, path: string): ApiError | undefined {
  const permission = permissionFor(method, path);
  if (permission === undefined || permission === 'NONE' || granted.includes(permission)) return undefined;
  return new ApiError(lacking(permission, method, path), 403, 'Forbidden');
}

interface ErrorBody {
  error?: unknown;
  error_description?: unknown;
  error_attributes?: unknown;
}

export function apiErrorFrom(status: number, body: unknown, method: string, path: string): ApiError {
  const { error, error_description: description, error_attributes: attributes } = (body ?? {}) as ErrorBody;
  const code = typeof error === 'string' ? error : `http_${status}`;
  const detail = typeof description === 'string' ? description : '';
  const fields = isFieldErrors(attributes) ? attributes : {};
  if (status === 401) {
    const what = code === 'api_key_invalid_or_expired' ? 'The API key is not accepted' : 'The secret does not match this key';
    return new ApiError(`${what}. ${detail}`.trim(), status, code);
  }
  if (status === 403 && code === 'Forbidden') {
    const permission = permissionFor(method, path);
    return new ApiError(
      permission === undefined
        ? 'This key is not allowed to do that.'
        : lacking(permission, method, path),
      status,
      code,
    );
  }
  if (status === 429) return new ApiError(`Too many requests: ${detail || 'wait a minute and try again.'}`, status, code);
  const fieldText = Object.entries(fields)
    .map(([field, messages]) => `${field} ${messages.join(', ')}`)
    .join('; ');
  return new ApiError(fieldText || detail || `The server answered ${status}.`, status, code, fields);
}

function isFieldErrors(value: unknown): value is FieldErrors {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.values(value).every((messages) => Array.isArray(messages) && messages.every((m) => typeof m === 'string'))
  );
}
