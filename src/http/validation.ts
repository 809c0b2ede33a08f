/**
 * Validates merged request parameters against a route's TypeBox schema and reports failures the
 * way the reference service does: record_invalid with error_attributes keyed by bracketed field
 * names and messages such as "is missing" or "does not have a valid value".
 */
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { Settings } from 'typebox/system';
import Value from 'typebox/value';
import { FieldErrorCollector } from '../shared/errors.ts';
import { convertInput } from './convert-input.ts';

export interface InputValidator<T> {
  (input: Record<string, unknown>): T;
}

interface SchemaError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
}

// Every bad field is named in one answer (TypeBox stops at 8 by default); the bound still keeps a
// hostile body from making validation collect without limit.
Settings.Set({ maxErrors: 100 });

export function compileValidator<T>(schema: TSchema): InputValidator<T> {
  const compiled = Compile(schema);
  return (input) => {
    const converted = convertInput(schema, Value.Default(schema, input));
    const collector = new FieldErrorCollector();
    if (!compiled.Check(converted)) {
      for (const error of compiled.Errors(converted) as Iterable<SchemaError>) {
        for (const [field, message] of describe(error)) collector.add(field, message);
      }
    }
    for (const [path, message] of declaredUnstorableText(schema, converted)) collector.add(fieldName(path), message);
    collector.throwIfAny();
    return converted as T;
  };
}

/**
 * Text PostgreSQL cannot store: U+0000, and a lone UTF-16 surrogate (a JSON `"\udfff"`), which
 * no UTF-8 text can hold. Either would fail at the database, or worse inside an engine batch
 * long after the request; it is refused here with its field named, in values and in names.
 * Only declared parameters count: the rest is never used.
 */
function* declaredUnstorableText(schema: TSchema, input: unknown): Generator<[string, string]> {
  const declared = Object.keys((schema as { properties?: object }).properties ?? {});
  if (typeof input !== 'object' || input === null) return;
  for (const key of declared) {
    if (Object.hasOwn(input, key)) yield* unstorableText((input as Record<string, unknown>)[key], `/${key}`);
  }
}

/** Where `value` holds text that cannot be stored, as JSON pointers with the reason. Depth is bounded by the parsers. */
export function* unstorableText(value: unknown, path: string): Generator<[string, string]> {
  if (typeof value === 'string') {
    const problem = textProblem(value);
    if (problem) yield [path, problem];
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const itemPath = `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      const problem = textProblem(key);
      if (problem) yield [itemPath, problem];
      yield* unstorableText(item, itemPath);
    }
  }
}

/** With the u flag a surrogate pair is one code point, so only an unpaired half matches. */
const LONE_SURROGATE = /\p{Cs}/u;

function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'is invalid: contains a NUL character';
  if (LONE_SURROGATE.test(text)) return 'is invalid: contains a lone surrogate, which is not Unicode text';
  return undefined;
}

function describe(error: SchemaError): Array<[string, string]> {
  const field = fieldName(error.instancePath);
  const params = error.params;
  switch (error.keyword) {
    case 'required':
      return (params.requiredProperties as string[]).map((name) => [
        fieldName(`${error.instancePath}/${name}`),
        'is missing',
      ]);
    case 'const':
    case 'enum':
    case 'anyOf':
    case 'oneOf':
      return [[field, 'does not have a valid value']];
    case 'minLength':
      return [[field, params.limit === 1 ? 'is empty' : `is too short. Min is ${String(params.limit)} symbols`]];
    case 'maxLength':
      return [[field, `too long. Max is ${String(params.limit)} symbols`]];
    case 'minimum':
      return [[field, `must be greater than or equal to ${String(params.limit)}`]];
    case 'maximum':
      return [[field, `must be less than or equal to ${String(params.limit)}`]];
    case 'exclusiveMinimum':
      return [[field, `must be greater than ${String(params.limit)}`]];
    case 'exclusiveMaximum':
      return [[field, `must be less than ${String(params.limit)}`]];
    case 'minItems':
      return [[field, 'is empty']];
    case 'maxItems':
      return [[field, `must have at most ${String(params.limit)} items`]];
    case 'additionalProperties':
      return [];
    default:
      return [[field, 'is invalid']];
  }
}

/** `/take_profit/steps/0/price` becomes `take_profit[steps][0][price]`. */
export function fieldName(instancePath: string): string {
  const parts = instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (parts.length === 0) return 'base';
  return parts[0] + parts.slice(1).map((part) => `[${part}]`).join('');
}
