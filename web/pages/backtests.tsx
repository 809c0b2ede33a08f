/**
 * Backtests: start one on the shipped candles (the settings are the body of the kind's create
 * endpoint, as on the command line) and follow the caller's backtests as they run.
 */
import dcaExample from '../../examples/backtest/dca-usdt-btc.json' with { type: 'json' };
import gridExample from '../../examples/backtest/grid-usdt-btc.json' with { type: 'json' };
import smartTradeExample from '../../examples/backtest/smart-trade-usdt-btc.json' with { type: 'json' };
import type { Backtest } from '../api/types.ts';
import { ApiError } from '../api/errors.ts';
import { useApp } from '../app-context.ts';
import { Field, OtherFieldErrors } from '../components/form-field.tsx';
import { Table } from '../components/panel.tsx';
import { ErrorNote, Freshness } from '../components/status.tsx';
import { formatTime, pairLabel } from '../lib/format.ts';
import { navigate } from '../lib/router.ts';
import { useForm } from '../lib/use-form.ts';
import { usePoll } from '../lib/use-poll.ts';

const EXAMPLES: Record<string, unknown> = { grid: gridExample, dca: dcaExample, smart_trade: smartTradeExample };
const KINDS = [
  ['grid', 'Grid bot'],
  ['dca', 'DCA bot'],
  ['smart_trade', 'SmartTrade'],
];
/** The pairs the server ships candles of (docs/backtesting.md). */
const PAIRS = ['USDT_BTC', 'USDT_ETH'];
const TIMEFRAMES = ['', '1h', '4h', '1d'];

type Values = { kind: string; pair: string; from: string; to: string; timeframe: string; balances: string; fee: string; settings: string };

const INITIAL: Values = {
  kind: 'grid',
  pair: 'USDT_BTC',
  from: '2019-01-01',
  to: '2019-03-31',
  timeframe: '',
  balances: '',
  fee: '0.001',
  settings: JSON.stringify(gridExample, null, 2),
};

export function BacktestsPage() {
  const { client } = useApp();
  const polled = usePoll((signal) => client.get<Backtest[]>('/ext/backtests', { signal }), []);
  return (
    <section class="page">
      <header class="page-header">
        <h1>Backtests</h1>
        <Freshness polled={polled} />
      </header>
      <BacktestForm />
      <section class="panel" aria-label="Your backtests">
        <header class="panel-header">
          <h2>Your backtests</h2>
        </header>
        <Table
          empty="No backtests yet."
          head={['Backtest', 'Kind', 'Pair', 'Period', 'Status', 'Started']}
          rows={(polled.data ?? []).map((backtest) => [
            <a href={`#/backtests/${backtest.id}`}>#{backtest.id}</a>,
            backtest.kind.replace('_', ' '),
            pairLabel(backtest.pair),
            `${backtest.from} – ${backtest.to}`,
            backtest.status === 'running' ? `running, ${backtest.progress} %` : backtest.status,
            formatTime(backtest.created_at),
          ])}
        />
      </section>
    </section>
  );
}

function BacktestForm() {
  const { client } = useApp();
  const form = useForm<Values>(INITIAL);
  const { values, set } = form;
  const errors = form.error?.fields;
  const chooseKind = (event: Event) => {
    const kind = (event.currentTarget as HTMLSelectElement).value;
    form.setValues((previous) => ({ ...previous, kind, settings: JSON.stringify(EXAMPLES[kind], null, 2) }));
  };
  const start = form.submit(async () => {
    let settings: unknown;
    try {
      settings = JSON.parse(values.settings);
    } catch {
      throw new ApiError('The settings are not JSON.', 400, 'record_invalid', { settings: ['must be a JSON object'] });
    }
    const { timeframe, balances, fee, ...rest } = values;
    const created = await client.post<Backtest>('/ext/backtests', {
      ...rest,
      settings,
      ...(timeframe ? { timeframe } : {}),
      ...(balances.trim() ? { balances: balances.trim() } : {}),
      ...(fee.trim() ? { fee: fee.trim() } : {}),
    });
    navigate(`/backtests/${created.id}`);
  });
  const select = (name: keyof Values, label: string, options: string[][], onChange = set(name)) => (
    <Field label={label} name={name} errors={errors}>
      <select id={name} value={values[name]} onChange={onChange}>
        {options.map(([value, text]) => (
          <option value={value}>{text}</option>
        ))}
      </select>
    </Field>
  );
  const input = (name: keyof Values, label: string, type = 'text', hint?: string) => (
    <Field label={label} name={name} errors={errors} {...(hint === undefined ? {} : { hint })}>
      <input id={name} name={name} type={type} value={values[name]} onInput={set(name)} aria-invalid={errors?.[name] ? true : undefined} />
    </Field>
  );
  return (
    <form class="panel form" aria-label="New backtest" onSubmit={start} noValidate>
      <header class="panel-header">
        <h2>New backtest</h2>
      </header>
      <div class="field-row">
        {select('kind', 'Kind', KINDS, chooseKind)}
        {select('pair', 'Pair', PAIRS.map((pair) => [pair, pairLabel(pair)]))}
        {select('timeframe', 'Candles', TIMEFRAMES.map((timeframe) => [timeframe, timeframe || 'the finest shipped']))}
      </div>
      <div class="field-row">
        {input('from', 'From', 'date')}
        {input('to', 'To (included)', 'date')}
        {input('balances', 'Balances', 'text', 'Empty: 10000 of the quote currency, or USDT:10000,BTC:0.1')}
        {input('fee', 'Fee', 'text', 'A fraction per fill')}
      </div>
      <Field label="Settings (the body of the create endpoint)" name="settings" errors={errors}>
        <textarea id="settings" rows={10} spellcheck={false} value={values.settings} onInput={set('settings')} aria-invalid={errors?.settings ? true : undefined} />
      </Field>
      <OtherFieldErrors errors={errors} shown={Object.keys(INITIAL)} />
      {form.error && Object.keys(form.error.fields).length === 0 && <ErrorNote error={form.error} />}
      <div class="actions">
        <button type="submit" disabled={form.busy}>
          {form.busy ? 'Starting…' : 'Run backtest'}
        </button>
      </div>
    </form>
  );
}
