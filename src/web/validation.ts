import * as t from 'io-ts';
import { isRight } from 'fp-ts/lib/Either.js';
import { HttpError } from './errors.js';
import { type JsonSchema, withJsonSchema } from './json-schema.js';

/**
 * Decodes request data with its codec, or fails with a 400 naming the first bad field and what
 * it should have been. Handlers only ever see decoded, typed values.
 */
export function decode<A>(codec: t.Decoder<unknown, A>, input: unknown, what = 'request body', fieldPrefix = ''): A {
  const unclean = uncleanString(input);
  if (unclean !== null) {
    const subject = unclean.path === '' ? what : `${fieldPrefix}${unclean.path}`;
    throw new HttpError(400, `${subject} must not ${unclean.inKey ? 'have a key that contains' : 'contain'} NUL or unpaired surrogate characters`);
  }
  const result = codec.decode(input);
  if (isRight(result)) return result.right;
  const [first] = result.left;
  throw new HttpError(400, first ? describe(first, what, fieldPrefix) : `invalid ${what}`);
}

/** A NUL, or half of a UTF-16 surrogate pair without its other half (`"\ud800"` survives JSON.parse). */
const UNCLEAN = /[\0\uD800-\uDFFF]/u;

/**
 * The first string in a request's data, or key of an object in it, that no field may hold: a NUL
 * cuts a name short wherever C strings are, and an unpaired surrogate is not Unicode at all (it
 * cannot be written as UTF-8). Every field of every codec is checked here, once, before any codec
 * runs; depth-first without recursion, as the body may be nested thousands deep.
 */
function uncleanString(input: unknown): { path: string; inKey: boolean } | null {
  return holdsUnclean(input) ? whereUnclean(input) : null;
}

/** Whether any string or key holds one; cheap enough for every request (paths are made only once one does). */
function holdsUnclean(input: unknown): boolean {
  const pending: unknown[] = [input];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (UNCLEAN.test(value)) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
    } else if (typeof value === 'object' && value !== null) {
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        if (UNCLEAN.test(key)) return true;
        pending.push(Reflect.get(value, key));
      }
    }
  }
  return false;
}

function whereUnclean(input: unknown): { path: string; inKey: boolean } | null {
  const pending: { value: unknown; path: string }[] = [{ value: input, path: '' }];
  while (pending.length > 0) {
    const { value, path } = pending.pop()!;
    if (typeof value === 'string') {
      if (UNCLEAN.test(value)) return { path, inKey: false };
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i -= 1) pending.push({ value: value[i], path: `${path}[${i}]` });
    } else if (typeof value === 'object' && value !== null) {
      const entries = Object.entries(value);
      if (entries.some(([key]) => UNCLEAN.test(key))) return { path, inKey: true };
      for (let i = entries.length - 1; i >= 0; i -= 1) pending.push({ value: entries[i]![1], path: path === '' ? entries[i]![0] : `${path}.${entries[i]![0]}` });
    }
  }
  return null;
}

function describe(error: t.ValidationError, what: string, fieldPrefix: string): string {
  const path = fieldPath(error.context);
  if (path !== '' && error.value === undefined) return `${fieldPrefix}${path} is required`;
  // Codecs that know better say the whole sentence themselves.
  if (error.message) return error.message;
  const expected = error.context[error.context.length - 1]?.type.name ?? 'a valid value';
  if (path === '') return `${what} must be ${withArticle(expected)}`;
  return `${fieldPrefix}${path} must be ${withArticle(expected)}`;
}

/** Keys that name a property or an array index; intersections and refinements add keys that do not. */
export function fieldPath(context: t.Context): string {
  const parts: string[] = [];
  for (let i = 1; i < context.length; i += 1) {
    let parent: t.Decoder<unknown, unknown> = context[i - 1]!.type;
    // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- io-ts types a refinement's inner codec as any
    while (parent instanceof t.RefinementType) parent = parent.type;
    const key = context[i]!.key;
    if (parent instanceof t.ArrayType) parts.push(`[${key}]`);
    else if (parent instanceof t.InterfaceType || parent instanceof t.PartialType || parent instanceof t.DictionaryType) {
      parts.push(parts.length > 0 ? `.${key}` : key);
    }
  }
  return parts.join('');
}

function withArticle(name: string): string {
  return /^(a|an|one|the|true|false)\b/.test(name) || /^[A-Z"']/.test(name) ? name : `a ${name}`;
}

export const BoundedString = (min: number, max: number) =>
  withJsonSchema(new t.Type<string, string, unknown>(
    min === max ? `a string of ${min} characters` : min === 0 ? `a string of at most ${max} characters` : `a string of ${min} to ${max} characters`,
    (u): u is string => typeof u === 'string' && u.length >= min && u.length <= max,
    (u, c) => (typeof u === 'string' && u.trim().length >= min && u.length <= max ? t.success(u) : t.failure(u, c)),
    t.identity,
  ), { type: 'string', ...(min > 0 ? { minLength: min } : {}), maxLength: max });

/** A codec whose failures carry a sentence naming `field`, for rules a type name cannot say. */
export function Checked<A>(
  name: string,
  check: (u: unknown) => { ok: true; value: A } | { ok: false; message: string },
  schema: JsonSchema = { description: name },
) {
  return withJsonSchema(new t.Type<A, A, unknown>(
    name,
    (u): u is A => check(u).ok,
    (u, c) => {
      const result = check(u);
      return result.ok ? t.success(result.value) : t.failure(u, c, result.message);
    },
    t.identity,
  ), schema);
}

export const Integer = (min: number, max: number) =>
  withJsonSchema(new t.Type<number, number, unknown>(
    `an integer from ${min} to ${max}`,
    (u): u is number => typeof u === 'number' && Number.isInteger(u) && u >= min && u <= max,
    (u, c) => (typeof u === 'number' && Number.isInteger(u) && u >= min && u <= max ? t.success(u) : t.failure(u, c)),
    t.identity,
  ), { type: 'integer', minimum: min, maximum: max });

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const Uuid = withJsonSchema(
  new t.Type<string, string, unknown>(
    'a UUID',
    (u): u is string => typeof u === 'string' && UUID_PATTERN.test(u),
    (u, c) => (typeof u === 'string' && UUID_PATTERN.test(u) ? t.success(u.toLowerCase()) : t.failure(u, c)),
    t.identity,
  ),
  { type: 'string', format: 'uuid' },
);

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const Email = withJsonSchema(
  new t.Type<string, string, unknown>(
    'an email address',
    (u): u is string => typeof u === 'string' && EMAIL_PATTERN.test(u),
    (u, c) => (typeof u === 'string' && u.length <= 254 && EMAIL_PATTERN.test(u.trim()) ? t.success(u.trim().toLowerCase()) : t.failure(u, c)),
    t.identity,
  ),
  { type: 'string', format: 'email', maxLength: 254 },
);

/** One of a fixed set of strings; the name lists them so the 400 tells the caller what is accepted. */
export function OneOf<const V extends string>(values: readonly V[]) {
  const isOneOf = (u: unknown): u is V => values.some((value) => value === u);
  const codec = new t.Type<V, V, unknown>(`one of ${values.join(', ')}`, isOneOf, (u, c) => (isOneOf(u) ? t.success(u) : t.failure(u, c)), t.identity);
  return withJsonSchema(codec, { type: 'string', enum: [...values] });
}

/**
 * A request body object: required and optional fields; unknown fields are dropped, so a handler
 * that spreads the body into a command can never carry a field nobody checked (a `type` or a
 * `project_id` of the caller's choosing).
 */
export function BodyOf<R extends t.Props, O extends t.Props>(required: R, optional: O, name = 'a JSON object') {
  const loose = t.intersection([t.type(required), t.partial(optional)], name);
  const known = new Set([...Object.keys(required), ...Object.keys(optional)]);
  const validate: typeof loose.validate = (u, c) => {
    const result = loose.validate(u, c);
    return isRight(result) ? t.success(onlyKnown(result.right, known)) : result;
  };
  return new t.IntersectionType(name, loose.is, validate, loose.encode, loose.types);
}

function onlyKnown<A extends object>(value: A, known: ReadonlySet<string>): A {
  const copy = { ...value };
  for (const key of Object.keys(copy)) if (!known.has(key)) Reflect.deleteProperty(copy, key);
  return copy;
}

/** An id in the path that is not a UUID names nothing that exists: 404, like any unknown id. */
export function pathId(value: unknown, resource: string): string {
  if (typeof value !== 'string' || !UUID_PATTERN.test(value)) throw new HttpError(404, `${resource} not found`);
  return value.toLowerCase();
}
