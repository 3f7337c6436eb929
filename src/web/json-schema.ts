/* eslint-disable @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-assignment -- io-ts's codec classes (t.ArrayType…) type their inner codecs as any; this walk reads them as t.Any */
import * as t from 'io-ts';

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) as a plain object. */
export type JsonSchema = { [keyword: string]: unknown };

/**
 * Schemas of the codecs io-ts cannot describe by itself (custom `t.Type`s such as a bounded
 * string). Kept beside the codec object so the schema and the decoder are one value.
 */
const annotations = new WeakMap<object, JsonSchema>();

export function withJsonSchema<C extends t.Any>(codec: C, schema: JsonSchema): C {
  annotations.set(codec, schema);
  return codec;
}

/** Keywords a refinement adds to the schema of the codec it refines (`maxItems` on an array, say). */
const refinementKeywords = new WeakMap<object, JsonSchema>();

export function withRefinementKeywords<C extends t.Any>(codec: C, keywords: JsonSchema): C {
  refinementKeywords.set(codec, keywords);
  return codec;
}

/** A fresh copy of `base` carrying `schema` (annotating a shared codec such as `t.string` would annotate every use). */
export function described<A, O>(base: t.Type<A, O, unknown>, schema: JsonSchema): t.Type<A, O, unknown> {
  return withJsonSchema(new t.Type<A, O, unknown>(base.name, base.is, base.validate, base.encode), schema);
}

export interface SchemaOptions {
  /** Responses are exact (`additionalProperties: false`); requests ignore unknown fields. */
  closed: boolean;
}

/** The JSON Schema of an io-ts codec: what the server accepts (or answers) is what it documents. */
export function toJsonSchema(codec: t.Any, options: SchemaOptions = { closed: false }): JsonSchema {
  const annotated = annotations.get(codec);
  if (annotated) return annotated;
  if (codec instanceof t.StringType) return { type: 'string' };
  if (codec instanceof t.NumberType) return { type: 'number' };
  if (codec instanceof t.BooleanType) return { type: 'boolean' };
  if (codec instanceof t.NullType) return { type: 'null' };
  if (codec instanceof t.UnknownType) return {};
  if (codec instanceof t.AnyDictionaryType) return { type: 'object' };
  if (codec instanceof t.LiteralType) return { const: codec.value };
  if (codec instanceof t.KeyofType) return { type: 'string', enum: Object.keys(codec.keys) };
  if (codec instanceof t.ArrayType || codec instanceof t.ReadonlyArrayType) return { type: 'array', items: toJsonSchema(codec.type, options) };
  if (codec instanceof t.RefinementType || codec instanceof t.ExactType || codec instanceof t.ReadonlyType) {
    return { ...toJsonSchema(codec.type, options), ...refinementKeywords.get(codec) };
  }
  if (codec instanceof t.DictionaryType) return { type: 'object', additionalProperties: toJsonSchema(codec.codomain, options) };
  if (codec instanceof t.InterfaceType || codec instanceof t.PartialType) return objectSchema([codec], options);
  if (codec instanceof t.IntersectionType) {
    const parts: t.Any[] = codec.types;
    if (parts.every((part) => part instanceof t.InterfaceType || part instanceof t.PartialType)) return objectSchema(parts, options);
    return { allOf: parts.map((part) => toJsonSchema(part, options)) };
  }
  if (codec instanceof t.UnionType) {
    const members: t.Any[] = codec.types;
    return { anyOf: members.map((member) => toJsonSchema(member, options)) };
  }
  // A custom codec nobody annotated: its name is the best description there is.
  return { description: codec.name };
}


function objectSchema(parts: readonly t.Any[], options: SchemaOptions): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const part of parts) {
    if (!(part instanceof t.InterfaceType || part instanceof t.PartialType)) continue;
    const props: t.Props = part.props;
    for (const [key, codec] of Object.entries(props)) {
      properties[key] = toJsonSchema(codec, options);
      if (part instanceof t.InterfaceType) required.push(key);
    }
  }
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    ...(options.closed ? { additionalProperties: false } : {}),
  };
}
