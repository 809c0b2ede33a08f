/**
 * A form's values and its submission: the API's field errors are kept for the fields they name,
 * and a field's message goes away as soon as that field changes.
 */
import { useState } from 'preact/hooks';
import { ApiError } from '../api/errors.ts';

export function useForm<Values extends Record<string, string | boolean>>(initial: Values) {
  const [values, setValues] = useState<Values>(initial);
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);

  const set = (name: keyof Values & string) => (event: Event) => {
    const input = event.currentTarget as HTMLInputElement;
    setValues((previous) => ({ ...previous, [name]: input.type === 'checkbox' ? input.checked : input.value }));
    setError((previous) => previous && withoutField(previous, name));
  };

  const submit = (work: () => Promise<unknown>) => async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await work();
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : new ApiError('Saving failed unexpectedly.', 0, 'client_error'));
    } finally {
      setBusy(false);
    }
  };

  return { values, setValues, set, submit, error, busy };
}

function withoutField(error: ApiError, name: string): ApiError | undefined {
  if (!(name in error.fields)) return error;
  const { [name]: _dropped, ...fields } = error.fields;
  return Object.keys(fields).length === 0 ? undefined : new ApiError(error.message, error.status, error.code, fields);
}
