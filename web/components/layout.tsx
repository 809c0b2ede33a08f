import type { ComponentChildren } from 'preact';
import { useApp } from '../app-context.ts';
import { REFRESH_CHOICES } from '../lib/use-poll.ts';

const NAV = [
  ['#/', 'Overview'],
  ['#/grid-bots/new', 'New grid bot'],
  ['#/dca-bots/new', 'New DCA bot'],
  ['#/smart-trades/new', 'New SmartTrade'],
  ['#/backtests', 'Backtests'],
];

export function Layout({ children, path }: { children: ComponentChildren; path: string }) {
  const { session, setMode, setRefresh, signOut } = useApp();
  return (
    <div class="shell">
      <header class="topbar">
        <a class="brand" href="#/">
          <img src="/favicon.svg" alt="" width={22} height={22} />
          Tradeloop
        </a>
        <nav aria-label="Pages">
          {NAV.map(([href, label]) => (
            <a href={href} aria-current={`#${path}` === href ? 'page' : undefined}>
              {label}
            </a>
          ))}
        </nav>
        <div class="topbar-end">
          <fieldset class="mode-switch">
            <legend class="visually-hidden">Trading mode</legend>
            {(['paper', 'real'] as const).map((mode) => (
              <label class={session.mode === mode ? 'active' : ''}>
                <input type="radio" name="mode" value={mode} checked={session.mode === mode} onChange={() => setMode(mode)} />
                {mode === 'paper' ? 'Paper' : 'Real'}
              </label>
            ))}
          </fieldset>
          <label class="inline refresh">
            Refresh
            <select value={String(session.refreshMs)} onChange={(event) => setRefresh(Number(event.currentTarget.value))}>
              {REFRESH_CHOICES.map((ms) => (
                <option value={String(ms)}>{ms / 1000} s</option>
              ))}
            </select>
          </label>
          <button type="button" class="link-button" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main">{children}</main>
    </div>
  );
}
