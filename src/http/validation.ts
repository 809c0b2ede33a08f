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
    for (const path of declaredNulStrings(schema, converted)) {
      collector.add(fieldName(path), 'is invalid: contains a NUL character');
    }
    collector.throwIfAny();
    return converted as T;
  };
}

/**
 * PostgreSQL text cannot hold U+0000, so a string carrying one would fail at the database; it is
 * refused here with its field named. Only declared parameters count: the rest is never used.
 */
function* declaredNulStrings(schema: TSchema, input: unknown): Generator<string> {
  const declared = Object.keys((schema as { properties?: object }).properties ?? {});
  if (typeof input !== 'object' || input === null) return;
  for (const key of declared) {
    if (Object.hasOwn(input, key)) yield* pathsOfNulStrings((input as Record<string, unknown>)[key], `/${key}`);
  }
}

/** Depth is bounded by the parsers (MAX_NESTING). */
function* pathsOfNulStrings(value: unknown, path: string): Generator<string> {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) yield path;
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      yield* pathsOfNulStrings(item, `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    }
  }
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
