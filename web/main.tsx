import './styles.css';
import { render } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import { ApiClient, loadSession, type Mode, type Session, saveSession } from './api/client.ts';
import { AppContext, type AppState } from './app-context.ts';
import { Layout } from './components/layout.tsx';
import { match, useHashPath } from './lib/router.ts';
import { BacktestPage } from './pages/backtest.tsx';
import { BacktestsPage } from './pages/backtests.tsx';
import { DcaBotForm } from './pages/dca-bot-form.tsx';
import { DcaBotPage } from './pages/dca-bot.tsx';
import { DealPage } from './pages/deal.tsx';
import { GridBotForm } from './pages/grid-bot-form.tsx';
import { GridBotPage } from './pages/grid-bot.tsx';
import { OverviewPage } from './pages/overview.tsx';
import { SignInPage } from './pages/sign-in.tsx';
import { SmartTradeForm } from './pages/smart-trade-form.tsx';
import { SmartTradePage } from './pages/smart-trade.tsx';

function App() {
  const [session, setSession] = useState<Session | undefined>(loadSession);
  const path = useHashPath();
  const update = (next: Session | undefined) => {
    saveSession(next);
    setSession(next);
  };
  // Pages reload as new when their client changes, so a new refresh choice keeps the client.
  const client = useMemo(
    () => session && new ApiClient(session),
    [session?.apiKey, session?.secret, session?.scheme, session?.permissions, session?.mode, session?.clockOffset],
  );
  const state = useMemo<AppState | undefined>(
    () =>
      session &&
      client && {
        session,
        client,
        setMode: (mode: Mode) => update({ ...session, mode }),
        setRefresh: (refreshMs: number) => update({ ...session, refreshMs }),
        signOut: () => update(undefined),
      },
    [session, client],
  );
  if (!state) return <SignInPage onSignedIn={update} />;
  return (
    <AppContext.Provider value={state}>
      <Layout path={path}>
        <Page path={path} key={`${path}:${state.session.mode}`} />
      </Layout>
    </AppContext.Provider>
  );
}

function Page({ path }: { path: string }) {
  let params: Record<string, string> | undefined;
  if (path === '/') return <OverviewPage />;
  if (path === '/grid-bots/new') return <GridBotForm />;
  if (path === '/dca-bots/new') return <DcaBotForm />;
  if (path === '/smart-trades/new') return <SmartTradeForm />;
  if (path === '/backtests') return <BacktestsPage />;
  if ((params = match('/grid-bots/:id/edit', path))) return <GridBotForm id={Number(params.id)} />;
  if ((params = match('/grid-bots/:id', path))) return <GridBotPage id={Number(params.id)} />;
  if ((params = match('/dca-bots/:id', path))) return <DcaBotPage id={Number(params.id)} />;
  if ((params = match('/deals/:id', path))) return <DealPage id={Number(params.id)} />;
  if ((params = match('/backtests/:id', path))) return <BacktestPage id={Number(params.id)} />;
  if ((params = match('/smart-trades/:id', path))) return <SmartTradePage id={Number(params.id)} />;
  return (
    <section>
      <h1>Not found</h1>
      <p>
        Nothing lives at {path}. <a href="#/">Back to the overview</a>
      </p>
    </section>
  );
}

render(<App />, document.getElementById('app')!);
