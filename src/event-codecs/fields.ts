import * as t from 'io-ts';

/** One of the listed strings, as its literal type (t.keyof wants an object; the lists are arrays). */
export function oneOf<const T extends string>(values: readonly T[], name: string): t.Type<T, T, unknown> {
  const allowed: ReadonlySet<string> = new Set(values);
  const is = (u: unknown): u is T => typeof u === 'string' && allowed.has(u);
  return new t.Type<T, T, unknown>(name, is, (u, context) => (is(u) ? t.success(u) : t.failure(u, context)), t.identity);
}

export const nullable = <C extends t.Mixed>(codec: C) => t.union([codec, t.null]);

export const NullableString = nullable(t.string);
export const NullableNumber = nullable(t.number);

/** A JSON object whose fields this codec does not look into (evidence, archived documents). */
export const AnyObject = t.UnknownRecord;
