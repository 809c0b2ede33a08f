/** Create a SmartTrade: an entry at market or limit, one take-profit target and a stop loss that may trail. */
import type { SmartTrade } from '../api/types.ts';
import { useApp } from '../app-context.ts';
import { Field, OtherFieldErrors } from '../components/form-field.tsx';
import { MarketFields } from '../components/market-fields.tsx';
import { ErrorNote } from '../components/status.tsx';
import { formatStep, pairParts } from '../lib/format.ts';
import { navigate } from '../lib/router.ts';
import { useForm } from '../lib/use-form.ts';
import { useMarketChoices } from '../lib/use-market-choices.ts';

type Values = {
  account_id: string;
  pair: string;
  side: string;
  order_type: string;
  units: string;
  price: string;
  take_profit: string;
  stop_loss: string;
  trailing: boolean;
  trailing_percent: string;
};

const INITIAL: Values = {
  account_id: '',
  pair: 'USDT_BTC',
  side: 'buy',
  order_type: 'market',
  units: '',
  price: '',
  take_profit: '',
  stop_loss: '',
  trailing: false,
  trailing_percent: '1',
};

/** The API's names for what each form field sets. */
const FIELDS = {
  units: 'position[units][value]',
  price: 'position[price][value]',
  take_profit: 'take_profit[steps]',
  stop_loss: 'stop_loss[conditional][price][value]',
};

export function SmartTradeForm() {
  const { client } = useApp();
  const form = useForm<Values>(INITIAL);
  const { values, set } = form;
  const choices = useMarketChoices(values.account_id, values.pair, (accountId) =>
    form.setValues((previous) => ({ ...previous, account_id: accountId })),
  );
  const errors = form.error?.fields;
  const { base, quote } = pairParts(values.pair);
  const save = form.submit(async () => {
    const trade = await client.post<SmartTrade>('/v2/smart_trades', {
      account_id: values.account_id,
      pair: values.pair,
      position: {
        type: values.side,
        order_type: values.order_type,
        units: { value: values.units },
        ...(values.order_type === 'limit' ? { price: { value: values.price } } : {}),
      },
      take_profit:
        values.take_profit === ''
          ? { enabled: false }
          : { enabled: true, steps: [{ order_type: 'limit', price: { value: values.take_profit, type: 'last' }, volume: 100 }] },
      stop_loss:
        values.stop_loss === ''
          ? { enabled: false }
          : {
              enabled: true,
              order_type: 'market',
              conditional: {
                price: { value: values.stop_loss, type: 'last' },
                trailing: values.trailing ? { enabled: true, percent: values.trailing_percent } : { enabled: false },
              },
            },
    });
    navigate(`/smart-trades/${trade.id}`);
  });
  const input = (name: keyof typeof FIELDS, label: string, hint?: string) => (
    <Field label={label} name={FIELDS[name]} errors={errors} {...(hint === undefined ? {} : { hint })}>
      <input id={FIELDS[name]} value={values[name]} inputMode="decimal" onInput={set(name)} aria-invalid={errors?.[FIELDS[name]] ? true : undefined} />
    </Field>
  );
  return (
    <section class="page">
      <header class="page-header">
        <h1>New SmartTrade</h1>
        {choices.rates && (
          <span class="muted">
            price {formatStep(choices.rates.last, choices.rates.priceStep)} {quote}
          </span>
        )}
      </header>
      <ErrorNote error={choices.error} />
      <form class="panel form narrow" onSubmit={save} noValidate>
        <MarketFields
          accounts={choices.accounts}
          pairChoices={choices.pairChoices}
          accountId={values.account_id}
          pair={values.pair}
          errors={errors}
          onAccount={set('account_id')}
          onPair={set('pair')}
        />
        <div class="field-row">
          <Field label="Side" name="position[type]" errors={errors}>
            <select id="position[type]" value={values.side} onChange={set('side')}>
              <option value="buy">Buy (long)</option>
              <option value="sell">Sell (short, own coins)</option>
            </select>
          </Field>
          <Field label="Entry" name="position[order_type]" errors={errors}>
            <select id="position[order_type]" value={values.order_type} onChange={set('order_type')}>
              <option value="market">At market</option>
              <option value="limit">At a limit price</option>
            </select>
          </Field>
        </div>
        <div class="field-row">
          {input('units', `Units (${base})`)}
          {values.order_type === 'limit' && input('price', `Limit price (${quote})`)}
        </div>
        <div class="field-row">
          {input('take_profit', `Take profit at (${quote})`, 'Empty: none')}
          {input('stop_loss', `Stop loss at (${quote})`, 'Empty: none')}
        </div>
        <div class="field-row">
          <label class="check">
            <input type="checkbox" checked={values.trailing} onChange={set('trailing')} />
            Trailing stop loss
          </label>
          {values.trailing && (
            <Field label="Trails by %" name="stop_loss[conditional][trailing][percent]" errors={errors}>
              <input id="stop_loss[conditional][trailing][percent]" value={values.trailing_percent} onInput={set('trailing_percent')} />
            </Field>
          )}
        </div>
        <OtherFieldErrors errors={errors} shown={[...Object.values(FIELDS), 'position[type]', 'position[order_type]', 'stop_loss[conditional][trailing][percent]', 'account_id', 'pair']} />
        {form.error && Object.keys(form.error.fields).length === 0 && <ErrorNote error={form.error} />}
        <div class="actions">
          <button type="submit" disabled={form.busy}>
            {form.busy ? 'Placing…' : 'Place SmartTrade'}
          </button>
          <a class="button secondary" href="#/">
            Cancel
          </a>
        </div>
      </form>
    </section>
  );
}
