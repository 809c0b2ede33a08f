/** Create a grid bot, or edit one, with a live preview of its lines and what they need. */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { publicGet } from '../api/client.ts';
import { ApiError } from '../api/errors.ts';
import type { Candle, GridBot } from '../api/types.ts';
import { useApp } from '../app-context.ts';
import { COLORS } from '../components/chart-theme.ts';
import { Field, OtherFieldErrors } from '../components/form-field.tsx';
import { MarketFields } from '../components/market-fields.tsx';
import { PriceChart } from '../components/price-chart.tsx';
import { ErrorNote } from '../components/status.tsx';
import { PAPER } from '../lib/candles.ts';
import { formatAmount, formatStep, pairParts } from '../lib/format.ts';
import { navigate } from '../lib/router.ts';
import { useForm } from '../lib/use-form.ts';
import { useMarketChoices } from '../lib/use-market-choices.ts';
import { gridPreview } from './grid-preview.ts';

type FormValues = {
  name: string;
  account_id: string;
  pair: string;
  lower_price: string;
  upper_price: string;
  grids_quantity: string;
  quantity_per_grid: string;
  grid_type: 'arithmetic' | 'geometric';
  lower_stop_loss_price: string;
  upper_stop_loss_price: string;
  ignore_warnings: boolean;
};

const EMPTY: FormValues = {
  name: '',
  account_id: '',
  pair: 'USDT_BTC',
  lower_price: '',
  upper_price: '',
  grids_quantity: '10',
  quantity_per_grid: '',
  grid_type: 'arithmetic',
  lower_stop_loss_price: '',
  upper_stop_loss_price: '',
  ignore_warnings: false,
};

const SHOWN_FIELDS = Object.keys(EMPTY).concat(['lower_stop_loss_enabled', 'upper_stop_loss_enabled']);

export function GridBotForm({ id }: { id?: number }) {
  const { client } = useApp();
  const { values, setValues, set, submit, error: submitError, busy } = useForm<FormValues>(EMPTY);
  const chooseAccount = (accountId: string) => setValues((previous) => ({ ...previous, account_id: accountId }));
  // An edited bot keeps its own account, loaded below.
  const { accounts, marketCode, pairChoices, rates, error: choicesError } = useMarketChoices(
    values.account_id,
    values.pair,
    id === undefined ? chooseAccount : undefined,
  );
  const [candles, setCandles] = useState<Candle[]>([]);
  const [loadError, setLoadError] = useState<ApiError>();
  // An edited bot's fields take input once its settings are in: typed before, they were overwritten.
  const [ready, setReady] = useState(id === undefined);

  useEffect(() => {
    if (id === undefined) return;
    const load = async () => {
      const bot = await client.get<GridBot>(`/ver1/grid_bots/${id}`);
      setValues({
        name: bot.name,
        account_id: String(bot.account_id),
        pair: bot.pair,
        lower_price: bot.lower_price,
        upper_price: bot.upper_price,
        grids_quantity: bot.grids_quantity,
        quantity_per_grid: bot.quantity_per_grid,
        grid_type: bot.grid_type === 'geometric' ? 'geometric' : 'arithmetic',
        lower_stop_loss_price: bot.lower_stop_loss_enabled ? (bot.lower_stop_loss_price ?? '') : '',
        upper_stop_loss_price: bot.upper_stop_loss_enabled ? (bot.upper_stop_loss_price ?? '') : '',
        ignore_warnings: false,
      });
      setReady(true);
    };
    load().catch((error: unknown) => setLoadError(error instanceof ApiError ? error : undefined));
  }, [client, id]);

  useEffect(() => {
    setCandles([]);
    if (marketCode === PAPER) {
      publicGet<Candle[]>('/ext/paper/candles', { pair: values.pair, interval: '5m', limit: 300 })
        .then(setCandles)
        .catch(() => undefined);
    }
  }, [marketCode, values.pair]);

  const preview = useMemo(
    () =>
      rates
        ? gridPreview({
            lower: values.lower_price,
            upper: values.upper_price,
            grids: values.grids_quantity,
            perGrid: values.quantity_per_grid,
            gridType: values.grid_type,
            price: rates.last,
            priceStep: rates.priceStep,
            lotStep: rates.lotStep,
          })
        : 'The preview needs the pair’s current price.',
    [values, rates],
  );

  const save = submit(async () => {
    const body = {
      ...(values.name.trim() === '' ? {} : { name: values.name.trim() }),
      upper_price: values.upper_price,
      lower_price: values.lower_price,
      grids_quantity: values.grids_quantity,
      quantity_per_grid: values.quantity_per_grid,
      grid_type: values.grid_type,
      lower_stop_loss_enabled: values.lower_stop_loss_price !== '',
      upper_stop_loss_enabled: values.upper_stop_loss_price !== '',
      ...(values.lower_stop_loss_price === '' ? {} : { lower_stop_loss_price: values.lower_stop_loss_price }),
      ...(values.upper_stop_loss_price === '' ? {} : { upper_stop_loss_price: values.upper_stop_loss_price }),
      ignore_warnings: values.ignore_warnings,
    };
    const bot =
      id === undefined
        ? await client.post<GridBot>('/ver1/grid_bots/manual', { ...body, account_id: values.account_id, pair: values.pair })
        : await client.patch<GridBot>(`/ver1/grid_bots/${id}/manual`, body);
    navigate(`/grid-bots/${bot.id}`);
  });

  const errors = submitError?.fields;
  const { base, quote } = pairParts(values.pair);
  const input = (name: keyof FormValues, extra: Record<string, unknown> = {}) => (
    <input
      id={name}
      name={name}
      value={values[name] as string}
      onInput={set(name)}
      aria-invalid={errors?.[name] ? true : undefined}
      aria-describedby={errors?.[name] ? `${name}-error` : undefined}
      disabled={!ready}
      {...extra}
    />
  );

  return (
    <section class="page">
      <header class="page-header">
        <h1>{id === undefined ? 'New grid bot' : `Edit grid bot #${id}`}</h1>
      </header>
      <ErrorNote error={loadError ?? choicesError} />
      <div class="form-layout">
        <form class="panel form" onSubmit={save} noValidate>
          <Field label="Name" name="name" errors={errors} hint="Optional">
            {input('name', { maxLength: 40 })}
          </Field>
          <MarketFields
            accounts={accounts}
            pairChoices={pairChoices}
            accountId={values.account_id}
            pair={values.pair}
            errors={errors}
            onAccount={set('account_id')}
            onPair={set('pair')}
            disabled={id !== undefined}
          />
          <div class="field-row">
            <Field label={`Lower price (${quote})`} name="lower_price" errors={errors}>
              {input('lower_price', { inputMode: 'decimal' })}
            </Field>
            <Field label={`Upper price (${quote})`} name="upper_price" errors={errors}>
              {input('upper_price', { inputMode: 'decimal' })}
            </Field>
          </div>
          <div class="field-row">
            <Field label="Lines" name="grids_quantity" errors={errors} hint="2 to 201">
              {input('grids_quantity', { inputMode: 'numeric' })}
            </Field>
            <Field label={`Amount per line (${base})`} name="quantity_per_grid" errors={errors}>
              {input('quantity_per_grid', { inputMode: 'decimal' })}
            </Field>
          </div>
          <Field label="Spacing" name="grid_type" errors={errors}>
            <select id="grid_type" name="grid_type" value={values.grid_type} onChange={set('grid_type')} disabled={!ready}>
              <option value="arithmetic">Arithmetic (equal distance)</option>
              <option value="geometric">Geometric (equal ratio)</option>
            </select>
          </Field>
          <div class="field-row">
            <Field label="Stop loss below" name="lower_stop_loss_price" errors={errors} hint="Empty: none">
              {input('lower_stop_loss_price', { inputMode: 'decimal' })}
            </Field>
            <Field label="Stop loss above" name="upper_stop_loss_price" errors={errors} hint="Empty: none">
              {input('upper_stop_loss_price', { inputMode: 'decimal' })}
            </Field>
          </div>
          <label class="check">
            <input type="checkbox" name="ignore_warnings" checked={values.ignore_warnings} onChange={set('ignore_warnings')} disabled={!ready} />
            Start even if the account lacks funds or the step does not cover the fees
          </label>
          <OtherFieldErrors errors={errors} shown={SHOWN_FIELDS} />
          {submitError && Object.keys(submitError.fields).length === 0 && <ErrorNote error={submitError} />}
          <div class="actions">
            <button type="submit" disabled={busy || !ready}>
              {busy ? 'Saving…' : id === undefined ? 'Create and start' : 'Save'}
            </button>
            <a class="button secondary" href={id === undefined ? '#/' : `#/grid-bots/${id}`}>
              Cancel
            </a>
          </div>
        </form>
        <section class="panel preview" aria-label="Preview">
          <header class="panel-header">
            <h2>Preview</h2>
            {rates && (
              <span class="muted">
                price {formatStep(rates.last, rates.priceStep)} {quote}
              </span>
            )}
          </header>
          {typeof preview === 'string' ? (
            <p class="muted">{preview}</p>
          ) : (
            <>
              <PriceChart
                candles={candles}
                lines={preview.lines.map((line) => ({
                  price: line.price,
                  color: line.side === 'buy' ? COLORS.up : line.side === 'sell' ? COLORS.down : COLORS.muted,
                  title: line.side ?? '',
                  dashed: line.side === null,
                }))}
                fills={[]}
                priceStep={rates?.priceStep}
                label="Preview of the grid lines"
              />
              <dl class="settings" data-testid="preview-required">
                <dt>Buy lines</dt>
                <dd>{preview.lines.filter((line) => line.side === 'buy').length}</dd>
                <dt>Sell lines</dt>
                <dd>{preview.lines.filter((line) => line.side === 'sell').length}</dd>
                <dt>Needs</dt>
                <dd>
                  {preview.base} {base} + {formatAmount(preview.quote)} {quote}
                </dd>
              </dl>
            </>
          )}
        </section>
      </div>
    </section>
  );
}
