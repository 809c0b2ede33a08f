/**
 * Numbers as the market counts them and times in the browser's zone. Decimals arrive as strings
 * and are formatted from the string (Intl's exact decimal formatting), never through a float.
 */
const formatters = new Map<string, Intl.NumberFormat>();

function numberFormat(minimum: number, maximum: number): Intl.NumberFormat {
  const key = `${minimum}:${maximum}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.NumberFormat(undefined, { minimumFractionDigits: minimum, maximumFractionDigits: maximum });
    formatters.set(key, format);
  }
  return format;
}

/** Decimal places of a step such as "0.01" (2) or "1" (0). */
export function stepDecimals(step: string | undefined): number {
  if (step === undefined) return 8;
  const fraction = step.split('.')[1]?.replace(/0+$/, '') ?? '';
  return fraction.length;
}

type Exact = Intl.StringNumericLiteral;

/** A decimal string shown with exactly the step's places, e.g. ("60123.456", "0.01") -> "60,123.46". */
export function formatStep(value: string | null | undefined, step: string | undefined): string {
  if (value === null || value === undefined || value === '') return '–';
  const places = stepDecimals(step);
  return numberFormat(places, places).format(value as Exact);
}

/** Money and profits: up to `places` decimals, trailing zeros dropped past two. */
export function formatAmount(value: string | number | null | undefined, places = 8): string {
  if (value === null || value === undefined || value === '') return '–';
  return numberFormat(Math.min(2, places), places).format(typeof value === 'number' ? value : (value as Exact));
}

export function formatSigned(value: string | number, places = 2): string {
  const text = formatAmount(value, places);
  return Number(value) > 0 ? `+${text}` : text;
}

export const profitClass = (value: string | number | null | undefined) =>
  value === null || value === undefined ? '' : Number(value) > 0 ? 'up' : Number(value) < 0 ? 'down' : '';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

export const formatTime = (iso: string | null | undefined) => (iso ? dateTime.format(new Date(iso)) : '–');
export const formatDate = (iso: string) => dateOnly.format(new Date(iso));

/** The pair's base and quote: Tradeloop names pairs QUOTE_BASE, as 3Commas does. */
export function pairParts(pair: string): { base: string; quote: string } {
  const [quote = '', base = ''] = pair.split('_');
  return { base, quote };
}

export const pairLabel = (pair: string) => {
  const { base, quote } = pairParts(pair);
  return `${base}/${quote}`;
};

/** Seconds since 1970 in the browser's zone, for charts that draw UTC timestamps as wall-clock time. */
export function chartTime(epochSeconds: number): number {
  return epochSeconds - new Date(epochSeconds * 1000).getTimezoneOffset() * 60;
}

/** The local calendar day of an instant, YYYY-MM-DD. */
export function localDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
