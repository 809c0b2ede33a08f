import { useState } from 'preact/hooks';
import type { Session } from '../api/client.ts';
import { ApiError } from '../api/errors.ts';
import { signIn } from '../api/sign-in.ts';
import { ErrorNote } from '../components/status.tsx';

export function SignInPage({ onSignedIn }: { onSignedIn(session: Session): void }) {
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setBusy(true);
    setError(undefined);
    try {
      onSignedIn(await signIn(String(form.get('api_key') ?? ''), String(form.get('secret') ?? '')));
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : new ApiError('Signing in failed unexpectedly.', 0, 'client_error'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="sign-in">
      <form onSubmit={submit} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">
          <img src="/favicon.svg" alt="" width={28} height={28} /> Tradeloop
        </h1>
        <p class="hint">Sign in with an API key and its secret. They stay in this tab only and are forgotten when it closes.</p>
        <label>
          API key
          <input name="api_key" autocomplete="username" required spellcheck={false} autoFocus />
        </label>
        <label>
          Secret
          <input name="secret" type="password" autocomplete="current-password" required spellcheck={false} />
        </label>
        <ErrorNote error={error} />
        <button type="submit" disabled={busy}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
        <p class="hint">
          Create a key with <code>npx tradeloop keys create --user NAME --name dashboard --permissions ... --signing tl1</code>; keys with the default signing work as well.
        </p>
      </form>
    </main>
  );
}
