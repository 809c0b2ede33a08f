/** Create a DCA bot on one pair; it starts disabled, as the API creates it, and is enabled from its page. */
import type { DcaBot } from '../api/types.ts';
import { useApp } from '../app-context.ts';
import { Field, OtherFieldErrors } from '../components/form-field.tsx';
import { MarketFields } from '../components/market-fields.tsx';
import { ErrorNote } from '../components/status.tsx';
import { pairParts } from '../lib/format.ts';
import { navigate } from '../lib/router.ts';
import { useForm } from '../lib/use-form.ts';
import { useMarketChoices } from '../lib/use-market-choices.ts';

type Values = {
  name: string;
  account_id: string;
  pairs: string;
  strategy: string;
  base_order_volume: string;
  safety_order_volume: string;
  safety_order_step_percentage: string;
  max_safety_orders: string;
  active_safety_orders_count: string;
  martingale_volume_coefficient: string;
  martingale_step_coefficient: string;
  take_profit: string;
  stop_loss_percentage: string;
};

const INITIAL: Values = {
  name: '',
  account_id: '',
  pairs: 'USDT_ETH',
  strategy: 'nonstop',
  base_order_volume: '20',
  safety_order_volume: '20',
  safety_order_step_percentage: '1',
  max_safety_orders: '5',
  active_safety_orders_count: '2',
  martingale_volume_coefficient: '1',
  martingale_step_coefficient: '1',
  take_profit: '1.5',
  stop_loss_percentage: '',
};

export function DcaBotForm() {
  const { client } = useApp();
  const form = useForm<Values>(INITIAL);
  const { values, set } = form;
  const choices = useMarketChoices(values.account_id, values.pairs, (accountId) =>
    form.setValues((previous) => ({ ...previous, account_id: accountId })),
  );
  const errors = form.error?.fields;
  const { quote } = pairParts(values.pairs);
  const save = form.submit(async () => {
    const { strategy, stop_loss_percentage: stopLoss, ...rest } = values;
    const bot = await client.post<DcaBot>('/ver1/bots/create_bot', {
      ...rest,
      name: values.name.trim() || `${values.pairs} DCA`,
      pairs: [values.pairs],
      base_order_volume_type: 'quote_currency',
      safety_order_volume_type: 'quote_currency',
      take_profit_type: 'total',
      strategy_list: [{ strategy }],
      ...(stopLoss === '' ? {} : { stop_loss_percentage: stopLoss }),
    });
    navigate(`/dca-bots/${bot.id}`);
  });
  const input = (name: keyof Values, label: string, hint?: string) => (
    <Field label={label} name={name} errors={errors} {...(hint === undefined ? {} : { hint })}>
      <input id={name} name={name} value={values[name]} onInput={set(name)} aria-invalid={errors?.[name] ? true : undefined} />
    </Field>
  );
  return (
    <section class="page">
      <header class="page-header">
        <h1>New DCA bot</h1>
      </header>
      <ErrorNote error={choices.error} />
      <form class="panel form narrow" onSubmit={save} noValidate>
        {input('name', 'Name', 'Optional')}
        <MarketFields
          accounts={choices.accounts}
          pairChoices={choices.pairChoices}
          accountId={values.account_id}
          pair={values.pairs}
          pairField="pairs"
          errors={errors}
          onAccount={set('account_id')}
          onPair={set('pairs')}
        />
        <Field label="Start deals" name="strategy_list" errors={errors}>
          <select id="strategy_list" value={values.strategy} onChange={set('strategy')}>
            <option value="nonstop">At once, one after another</option>
            <option value="manual">Only when started by hand</option>
          </select>
        </Field>
        <div class="field-row">
          {input('base_order_volume', `Base order (${quote})`)}
          {input('safety_order_volume', `Safety order (${quote})`)}
        </div>
        <div class="field-row">
          {input('max_safety_orders', 'Safety orders')}
          {input('active_safety_orders_count', 'Placed at once')}
          {input('safety_order_step_percentage', 'Step %')}
        </div>
        <div class="field-row">
          {input('martingale_volume_coefficient', 'Volume scale')}
          {input('martingale_step_coefficient', 'Step scale')}
        </div>
        <div class="field-row">
          {input('take_profit', 'Take profit %')}
          {input('stop_loss_percentage', 'Stop loss %', 'Empty: none')}
        </div>
        <OtherFieldErrors errors={errors} shown={[...Object.keys(INITIAL), 'strategy_list']} />
        {form.error && Object.keys(form.error.fields).length === 0 && <ErrorNote error={form.error} />}
        <div class="actions">
          <button type="submit" disabled={form.busy}>
            {form.busy ? 'Saving…' : 'Create'}
          </button>
          <a class="button secondary" href="#/">
            Cancel
          </a>
        </div>
      </form>
    </section>
  );
}
