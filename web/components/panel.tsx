/** A titled block of a page, a headline figure, and a plain data table. */
import type { ComponentChildren } from 'preact';
import { profitClass } from '../lib/format.ts';
import type { Section } from '../lib/settle.ts';
import { ErrorNote } from './status.tsx';

export function SectionOf<T>(props: { title: string; section: Section<T>; action?: ComponentChildren; children: (value: T) => ComponentChildren }) {
  return (
    <section class="panel" aria-label={props.title}>
      <header class="panel-header">
        <h2>{props.title}</h2>
        {props.action}
      </header>
      {props.section.ok ? props.children(props.section.value) : <ErrorNote error={props.section.error} />}
    </section>
  );
}

export function Table({ head, rows, empty }: { head: string[]; rows: ComponentChildren[][]; empty: string }) {
  if (rows.length === 0) return <p class="muted">{empty}</p>;
  return (
    <div class="table-scroll">
      <table>
        <thead>
          <tr>
            {head.map((title) => (
              <th scope="col">{title}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((cells) => (
            <tr>
              {cells.map((cell) => (
                <td>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A headline number; `tone` colours it as a profit or a loss. */
export function Figure(props: { label: string; value: string; tone?: string | number | null | undefined; testId?: string }) {
  return (
    <div class="figure">
      <dt>{props.label}</dt>
      <dd class={profitClass(props.tone)} data-testid={props.testId}>
        {props.value}
      </dd>
    </div>
  );
}
