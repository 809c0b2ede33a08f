/** The account and pair choosers every create form begins with. */
import type { FieldErrors } from '../api/errors.ts';
import type { Account } from '../api/types.ts';
import { pairLabel } from '../lib/format.ts';
import { Field } from './form-field.tsx';

interface Props {
  accounts: Account[];
  pairChoices: string[];
  accountId: string;
  pair: string;
  pairField?: string;
  errors: FieldErrors | undefined;
  onAccount(event: Event): void;
  onPair(event: Event): void;
  disabled?: boolean;
}

export function MarketFields(props: Props) {
  const pairField = props.pairField ?? 'pair';
  return (
    <>
      <Field label="Account" name="account_id" errors={props.errors}>
        <select id="account_id" name="account_id" value={props.accountId} onChange={props.onAccount} disabled={props.disabled}>
          {props.accounts.map((option) => (
            <option value={String(option.id)}>{option.name}</option>
          ))}
        </select>
      </Field>
      <Field label="Pair" name={pairField} errors={props.errors}>
        <select id={pairField} name={pairField} value={props.pair} onChange={props.onPair} disabled={props.disabled}>
          {props.pairChoices.map((pair) => (
            <option value={pair}>{pairLabel(pair)}</option>
          ))}
        </select>
      </Field>
    </>
  );
}
