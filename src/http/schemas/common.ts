import Type, { type TSchemaOptions } from 'typebox';

/** A string that must be one of the given values; reported as "does not have a valid value". */
export const oneOf = <const Values extends string[]>(values: readonly [...Values], options: TSchemaOptions = {}) =>
  Type.Enum(values, options);

/** A record id from the path or the parameters, sent as a string or a number. */
export const Id = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
