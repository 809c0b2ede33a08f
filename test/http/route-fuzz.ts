/**
 * Requests for one route that are valid but for one or a few parameters: a plausible input (what
 * the schema requires, with the fixtures' ids and obvious values), then hostile values put into
 * it (other JSON types, one past a bound, huge numbers and texts, unicode, object member names,
 * dates out of range, duplicate keys), sent as a query, a form or JSON. A parameter that is
 * otherwise valid reaches past validation, into the services and the database.
 */
import { formText, type Operation, type Random, type Request, type Schema } from './route-table.ts';

type Sample = (name: string) => unknown;

const HOSTILE: unknown[] = [
  null, [], {}, [[]], { a: {} }, true, 0, -1, 1.5, 1e308, 2 ** 53 + 1, '', ' ', '-0', 'NaN', '1e400', '1e999999999', '0x10',
  '92233720368547758', '9'.repeat(400), 'x'.repeat(5000), '\u0000', '\udfff', '\ud83d\ude00', 'الرِّبْحُ', 'e\u0301', '\u202e',
  '__proto__', 'constructor', 'toString', 'hasOwnProperty', '0000-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '10000-01-01',
  '2024-02-30', '1704164645000', 'True', 'USDT_', '_', 'paper_trading',
];
const NAMES = ['__proto__', 'constructor', 'toString', 'valueOf', '[]', 'a[b]', ''];

/** What the schema accepts, plainly: the fixtures' values by name, else the first valid value. */
export function plausible(schema: Schema, name: string, sample: Sample): unknown {
  const known = sample(name);
  if (known !== undefined && (!schema.enum || schema.enum.includes(known))) return known;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return schema.enum.find((value) => value !== null);
  if (schema.anyOf) return plausible(schema.anyOf[0]!, name, sample);
  switch (schema.type) {
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, Math.min(schema.maximum ?? 1, 1));
    case 'string':
      return /(^|_)(from|to|date|at)$/.test(name) ? '2024-01-02 03:04:05' : '1';
    case 'boolean':
      return false;
    case 'array':
      return [plausible(schema.items ?? {}, name, sample)];
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((key) => [key, plausible(schema.properties?.[key] ?? {}, key, sample)]));
    default:
      return '1';
  }
}

export const plausibleInput = (operation: Operation, sample: Sample) => plausible(operation.input, '', sample) as Record<string, unknown>;

/** The values most likely to break a parameter of this schema. */
export function edgeValues(schema: Schema): unknown[] {
  const branch = schema.anyOf?.[0] ?? schema;
  if (branch.enum) return ['constructor', '__proto__', [branch.enum[0]]];
  switch (branch.type) {
    case 'integer':
    case 'number':
      return [(branch.maximum ?? 1e20) + 1, '92233720368547758', (branch.minimum ?? -1e20) - 1, '1.5'];
    case 'string':
      return ['constructor', '0000-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '1e999999999', 'x'.repeat((branch.maxLength ?? 4000) + 1)];
    case 'boolean':
      return ['True', 'maybe', null];
    case 'array':
      return [[], Array.from({ length: 1001 }, () => '1'), { 0: '1' }];
    default:
      return [{}, 'text', [null]];
  }
}

/** One parameter at a time set to each of its edge values, the rest plausible. */
export function* edgeInputs(operation: Operation, sample: Sample): Generator<Record<string, unknown>> {
  const base = plausibleInput(operation, sample);
  for (const [name, schema] of Object.entries(operation.input.properties ?? {})) {
    for (const value of edgeValues(schema)) yield { ...base, [name]: value };
  }
}

/** A plausible input with one to three parameters, nested ones included, set to hostile values. */
export function randomInput(random: Random, operation: Operation, sample: Sample): Record<string, unknown> {
  const input = plausibleInput(operation, sample);
  const names = Object.keys(operation.input.properties ?? {});
  for (let count = random.int(1, 3); count > 0 && names.length > 0; count--) {
    const name = random.pick(names);
    const schema = operation.input.properties![name]!;
    const inner = schema.type === 'object' && random.chance(0.5) ? randomInput(random, { ...operation, input: schema }, sample) : undefined;
    input[name] = inner ?? random.pick([...HOSTILE, ...edgeValues(schema), plausible(schema, name, sample)]);
  }
  if (random.chance(0.1)) Object.defineProperty(input, random.pick(NAMES), { value: random.pick(HOSTILE), enumerable: true });
  return input;
}

/** The same key twice: query and form parsers make a list of it, JSON keeps the last. */
function duplicated(random: Random, value: Record<string, unknown>): [string, unknown] | undefined {
  const keys = Object.keys(value);
  return keys.length > 0 && random.chance(0.2) ? [random.pick(keys), random.pick(HOSTILE)] : undefined;
}

function queryText(value: Record<string, unknown>, duplicate: [string, unknown] | undefined): string | undefined {
  try {
    const base = formText(value);
    return duplicate ? `${base}&${formText({ [duplicate[0]]: duplicate[1] })}` : base;
  } catch {
    return undefined; // A lone surrogate has no percent-encoding.
  }
}

function jsonText(value: Record<string, unknown>, duplicate: [string, unknown] | undefined): string {
  const base = JSON.stringify(value);
  if (!duplicate || base === '{}') return base;
  return `{${JSON.stringify(duplicate[0])}:${JSON.stringify(duplicate[1]) ?? 'null'},${base.slice(1)}`;
}

/**
 * The input as GET and DELETE send it (the query), or for other methods as JSON, a form or the
 * query; a hostile input may carry one of its keys twice.
 */
export function requestFor(random: Random, operation: Operation, path: string, input: Record<string, unknown>, hostile = true): Request {
  const duplicate = hostile ? duplicated(random, input) : undefined;
  const query = queryText(input, duplicate);
  const bodyless = operation.method === 'GET' || operation.method === 'DELETE';
  if (query !== undefined && (bodyless || random.chance(0.15))) return { method: operation.method, target: `${path}?${query}` };
  if (query !== undefined && random.chance(0.25)) {
    return { method: operation.method, target: path, body: query, contentType: 'application/x-www-form-urlencoded' };
  }
  if (bodyless) return { method: operation.method, target: path };
  return { method: operation.method, target: path, body: jsonText(input, duplicate), contentType: 'application/json' };
}
