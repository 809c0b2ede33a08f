/** How fresh a page's data is, and what went wrong when it is not. */
import type { ApiError } from '../api/errors.ts';
import type { Polled } from '../lib/use-poll.ts';

export function Freshness({ polled }: { polled: Polled<unknown> }) {
  const { error, loadedAt, loading } = polled;
  if (loading && !loadedAt) return <p class="freshness">Loading…</p>;
  if (error) {
    const reason = error.status === 0 ? 'the server is unreachable' : error.message;
    return (
      <p class="freshness stale" role="status">
        {loadedAt ? `Stale since ${loadedAt.toLocaleTimeString()}: ${reason}` : `Could not load: ${reason}`}
        <button type="button" class="link-button" onClick={() => void polled.reload()}>
          Retry
        </button>
      </p>
    );
  }
  return <p class="freshness">Updated {loadedAt?.toLocaleTimeString()}</p>;
}

export function ErrorNote({ error }: { error: ApiError | undefined }) {
  if (!error) return null;
  return (
    <p class="error-note" role="alert">
      {error.message}
    </p>
  );
}

/** The API's validation messages for one field, shown beside it. */
export function FieldMessage({ errors, name }: { errors: Record<string, string[]> | undefined; name: string }) {
  const messages = errors?.[name];
  if (!messages?.length) return null;
  return (
    <span class="field-error" id={`${name}-error`} role="alert">
      {messages.join(', ')}
    </span>
  );
}
