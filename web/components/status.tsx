/** How fresh a page's data is, what went wrong when it is not, and the controls pages share. */
import type { ApiError } from '../api/errors.ts';
import { CANDLE_INTERVALS } from '../lib/candles.ts';
import type { Polled } from '../lib/use-poll.ts';

export function Freshness({ polled }: { polled: Polled<unknown> }) {
  const { error, loadedAt, loading } = polled;
  if (loading && !loadedAt) return <p class="freshness">Loading…</p>;
  if (error) {
    const reason = error.code === 'unreachable' ? 'the server is unreachable' : error.message;
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

/** A page whose data has not arrived (yet): its title and why. */
export function PendingPage({ title, polled }: { title: string; polled: Polled<unknown> }) {
  return (
    <section class="page">
      <h1>{title}</h1>
      <Freshness polled={polled} />
    </section>
  );
}

export function IntervalSelect({ value, onChange }: { value: string; onChange(value: string): void }) {
  return (
    <label class="inline">
      Interval{' '}
      <select value={value} onChange={(event) => onChange(event.currentTarget.value)}>
        {CANDLE_INTERVALS.map((interval) => (
          <option value={interval}>{interval}</option>
        ))}
      </select>
    </label>
  );
}
