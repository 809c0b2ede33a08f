/** Runs a button's API call: one at a time, with its refusal kept to show beside the button. */
import { useState } from 'preact/hooks';
import { ApiError } from '../api/errors.ts';

export function useAction(onDone: () => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const run = async (work: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await work();
      onDone();
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : new ApiError('The action failed unexpectedly.', 0, 'client_error'));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}
