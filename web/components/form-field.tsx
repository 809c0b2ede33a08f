/** A labelled input with the API's messages for its field right beside it. */
import type { ComponentChildren } from 'preact';
import type { FieldErrors } from '../api/errors.ts';
import { FieldMessage } from './status.tsx';

interface Props {
  label: string;
  name: string;
  errors: FieldErrors | undefined;
  hint?: string;
  children: ComponentChildren;
}

export function Field({ label, name, errors, hint, children }: Props) {
  return (
    <div class={`field${errors?.[name]?.length ? ' invalid' : ''}`}>
      <label for={name}>{label}</label>
      {children}
      {hint && <small class="muted">{hint}</small>}
      <FieldMessage errors={errors} name={name} />
    </div>
  );
}

/** Messages for fields the form does not show, so none is lost. */
export function OtherFieldErrors({ errors, shown }: { errors: FieldErrors | undefined; shown: string[] }) {
  const others = Object.entries(errors ?? {}).filter(([name]) => !shown.includes(name));
  if (others.length === 0) return null;
  return (
    <ul class="error-note" role="alert">
      {others.map(([name, messages]) => (
        <li>
          {name}: {messages.join(', ')}
        </li>
      ))}
    </ul>
  );
}
