import { ApiError } from '../api/errors.ts';

/** A section's data or why it could not be loaded, so one refused call does not blank a page. */
export type Section<T> = { ok: true; value: T } | { ok: false; error: ApiError };

export async function settle<T>(promise: Promise<T>, signal: AbortSignal): Promise<Section<T>> {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    if (signal.aborted) throw error;
    // An unreachable server fails the whole page (stale), not one section of it.
    if (error instanceof ApiError && error.code !== 'unreachable') return { ok: false, error };
    throw error;
  }
}
