import Type, { type TSchemaOptions } from 'typebox';

/** A string that must be one of the given values; reported as "does not have a valid value". */
export const oneOf = <const Values extends string[]>(values: readonly [...Values], options: TSchemaOptions = {}) =>
  Type.Enum(values, options);

/** A record id from the path or the parameters, sent as a string or a number. */
export const Id = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });

/** An integer whose range a service checks with its own messages; held here to what a number keeps exact. */
export const SafeInteger = Type.Integer({ minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER });

/** Paging: large enough for any real list, small enough that page × per_page stays a safe bigint offset. */
export const Page = Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 });
export const Offset = Type.Integer({ minimum: 0, maximum: 10_000_000, default: 0 });
