/**
 * Query strings and form bodies carry only strings, so parameters are converted to the types their
 * schema asks for before validation, but only from a value's exact textual form: "12" becomes an
 * integer while "1.5", "0x0c", "1e1", " 12" and "" stay strings and fail validation. (TypeBox's own
 * Value.Convert truncates "1.5" to 1 and reads null as 0, which would let a malformed id address
 * another record.) Values that cannot be converted are returned unchanged for the validator to name.
 */
import type { TSchema } from 'typebox';
import Value from 'typebox/value';

interface SchemaNode {
  type?: string;
  anyOf?: SchemaNode[];
  properties?: Record<string, SchemaNode>;
  patternProperties?: Record<string, SchemaNode>;
  items?: SchemaNode;
}

const INTEGER = /^-?\d+$/;
const NUMBER = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;
/**
 * The reference is a Rails service, which reads "1", "0", "t", "f", "yes" and "no" as booleans too;
 * Python clients write True and False.
 */
const BOOLEAN_TEXT = new Map([
  ...['true', 't', 'yes', '1'].map((text) => [text, true] as const),
  ...['false', 'f', 'no', '0'].map((text) => [text, false] as const),
]);

export function convertInput(schema: TSchema, value: unknown): unknown {
  return convert(schema as SchemaNode, value);
}

function convert(schema: SchemaNode, value: unknown): unknown {
  if (schema.anyOf) return convertUnion(schema.anyOf, value);
  switch (schema.type) {
    case 'integer':
      return typeof value === 'string' && INTEGER.test(value) ? Number(value) : value;
    case 'number':
      return typeof value === 'string' && NUMBER.test(value) ? Number(value) : value;
    case 'boolean':
      return typeof value === 'string' ? (BOOLEAN_TEXT.get(value.toLowerCase()) ?? value) : value;
    case 'string':
      // JSON clients send numbers where the reference expects decimal strings.
      return typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
    case 'array':
      return convertArray(schema.items, value);
    case 'object':
      return convertObject(schema, value);
    default:
      return value;
  }
}

function convertUnion(branches: SchemaNode[], value: unknown): unknown {
  if (branches.some((branch) => Value.Check(branch as TSchema, value))) return value;
  for (const branch of branches) {
    const converted = convert(branch, value);
    if (Value.Check(branch as TSchema, converted)) return converted;
  }
  return value;
}

/** A name sent once (`account_ids=1` rather than `account_ids[]=1`) is a list of one. */
function convertArray(items: SchemaNode | undefined, value: unknown): unknown {
  const list = Array.isArray(value) ? value : isScalar(value) ? [value] : undefined;
  if (list === undefined || items === undefined) return list ?? value;
  return list.map((item) => convert(items, item));
}

function convertObject(schema: SchemaNode, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const patterns = Object.entries(schema.patternProperties ?? {}).map(
    ([pattern, node]) => [new RegExp(pattern, 'u'), node] as const,
  );
  const nodeFor = (key: string) =>
    Object.hasOwn(schema.properties ?? {}, key)
      ? schema.properties![key]
      : patterns.find(([pattern]) => pattern.test(key))?.[1];
  // fromEntries defines own properties, so a `__proto__` key stays data and never a prototype.
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      const node = nodeFor(key);
      return [key, node === undefined ? item : convert(node, item)];
    }),
  );
}

function isScalar(value: unknown): boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}
