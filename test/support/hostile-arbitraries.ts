import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import * as t from 'io-ts';

/** Strings that have broken parsers somewhere: encodings, numbers in disguise, schedules, zones, dates, injections. */
const NASTY_STRINGS = [
  '', ' ', '\t', '\u0000', '\u0000abc', 'a\u0000b', '\r\n', '\uFEFF', '\uD800', '\uDFFF\uD800', '\u202E', '😀', 'ﷺ', 'Ǆ', 'İ', 'ß',
  'null', 'undefined', 'true', 'NaN', '-NaN', 'Infinity', '-Infinity', '-0', '0x1F', '1e309', '-1e309', '9007199254740993', '1_000', ' 1 ', '٣',
  '__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf',
  '1h', '0s', '0m', '-5m', '1.5h', '999999999999d', '1e3s', 'P1D', '* * * * *', '*/0 * * * *', '61 * * * *', '0 0 31 2 *', '0 0 30 2 *',
  '@reboot', '@yearly', '0 0 * * 8', '0 0 L * *', '0 0 ? * MON#6', '* * * * * * *', '*/1000000000 * * * *', '1-0 * * * *', '0 0 29 2 1970',
  'UTC', 'Europe/Paris', 'Mars/Olympus_Mons', 'Etc/GMT+99', '+25:00', 'local', '../../etc/passwd', 'America/New_York\u0000',
  '2026-11-21T12:00:00Z', '2026-13-45T99:99:99Z', '0000-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z', '2026-11-21 junk', '2026-02-30', '+275760-09-13T00:00:00Z',
  "' OR 1=1 --", '"; DROP TABLE events; --', '{"$gt":""}', '$where', '<script>alert(1)</script>', '${jndi:ldap://127.0.0.1/x}', '{{7*7}}', '%s%s%n',
  'a@b.c', 'no-at-sign', 'a@b', '@@', 'x'.repeat(64) + '@' + 'y'.repeat(250) + '.com',
  'http://127.0.0.1:9/', 'https://127.0.0.1:9/', 'ftp://127.0.0.1/', 'javascript:alert(1)', 'http://', 'file:///etc/passwd',
  'vgl_live_', 'vgl_live_00000000000000000000000000', 'vgl_test_ZZZZZZZZZZZZZZZZZZZZZZZZZZ',
];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 60 }) },
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 20_000 }).map((n) => 'x'.repeat(n)) },
  { weight: 1, arbitrary: fc.uuid() },
);

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, -0, 1, -1, 0.5, 1.5, -1.5, 2 ** 31, 2 ** 31 - 1, 2 ** 32, 2 ** 53, 2 ** 53 + 2, 1e21, 1e308, -1e308, 5e-324, Number.MAX_VALUE, 86_400 * 3650, 1_000_000),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

const hostileScalar: fc.Arbitrary<unknown> = fc.oneof(hostileString, hostileNumber, fc.boolean(), fc.constant(null));

/** Any JSON value, weighted towards the values above, nested a little. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileScalar },
  { weight: 1, arbitrary: fc.array(hostileScalar, { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.dictionary(hostileString, hostileScalar, { maxKeys: 5 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** JSON texts (not values: `__proto__` must stay a literal key) that try to pollute prototypes or exhaust the parser. */
export const HOSTILE_JSON_TEXTS = [
  '{"__proto__":{"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"name":"x","__proto__":{"polluted":"yes","isAdmin":true},"config":{"__proto__":{"polluted":"yes"}}}',
  '{"name":"x","type":"WEBHOOK","config":{"url":"http://127.0.0.1:9/","__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}}',
  '{"tags":{"__proto__":["polluted"]},"scopes":{"length":1,"0":"destroy"}}',
  '{"a":1,"a":2,"name":"dup","name":"keys"}',
  `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
  `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`,
  '{"name":1e999999}',
  '{"expires_in_days":-0,"failure_tolerance":1e308,"retention_count":9007199254740993}',
  '"\\ud800"',
  '{"name":"\\u0000\\ud800\\udfff"}',
];

/** Bodies that are not JSON at all, or not quite. */
export const NON_JSON_TEXTS = [
  '', ' ', '{', '[', '{"name":', '{"name":"x"}garbage', '{"name":"x"}{"name":"y"}', "{'name':'x'}", '{name:"x"}', 'undefined', 'NaN', '-', '1e', '\uFEFF{}',
  '\u0000', 'name=x&description=y', '<?xml version="1.0"?><a/>', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--', 'null', '1', '"string"', 'true', '[]',
];

export const CONTENT_TYPES = [
  'application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/json; charset=utf-16', 'application/json; charset=latin1',
  'application/json; charset=bogus', 'application/merge-patch+json', 'application/vnd.api+json', 'application/json;;;', 'application/json, text/plain',
  'text/plain', 'text/html', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/octet-stream', '*/*', 'json', ';', '',
];

export const CONTENT_ENCODINGS = ['gzip', 'deflate', 'br', 'identity', 'x-junk', 'gzip, gzip', ''];

/** Bytes as a ping might carry them, including ones that are not UTF-8 at all. */
export const hostilePayload: fc.Arbitrary<Buffer> = fc.oneof(
  fc.uint8Array({ maxLength: 3000 }).map((bytes) => Buffer.from(bytes)),
  fc.constantFrom(
    Buffer.from([0xc0, 0x80]), Buffer.from([0xff, 0xfe, 0xfd]), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xf4, 0x90, 0x80, 0x80]),
    Buffer.from([0xe2, 0x82]), Buffer.from('\u0000'.repeat(100)), Buffer.from('é'.repeat(600)), Buffer.alloc(0),
  ),
  fc.integer({ min: 1000, max: 300_000 }).map((n) => Buffer.alloc(n, 0xe9)),
  fc.string({ unit: 'grapheme', maxLength: 200 }).map((text) => Buffer.from(text)),
);

/** Real ids the fixtures own, so generated UUIDs sometimes name things that exist. */
export type KnownIds = () => string[];

/**
 * Values that get past the outer layers of a codec (right field names, right kinds of value, in
 * and just outside their ranges), so validation is exercised deep and not only at its first check.
 */
export function plausibleFor(codec: t.Decoder<unknown, unknown>, knownIds: KnownIds, depth = 0): fc.Arbitrary<unknown> {
  const inner = (c: t.Decoder<unknown, unknown>) => plausibleFor(c, knownIds, depth + 1);
  if (depth > 4) return hostileValue;
  if (codec instanceof t.InterfaceType) return fc.record(mapProps(codec.props, inner));
  if (codec instanceof t.PartialType) return fc.record(mapProps(codec.props, inner), { requiredKeys: [] });
  if (codec instanceof t.IntersectionType) {
    const parts: t.Mixed[] = codec.types;
    return fc.tuple(...parts.map(inner)).map((values) => Object.assign({}, ...values.filter((v) => typeof v === 'object' && v !== null)));
  }
  if (codec instanceof t.RefinementType) return inner(codec.type);
  if (codec instanceof t.ArrayType) return fc.array(inner(codec.type), { maxLength: 4 });
  if (codec instanceof t.UnionType) return fc.oneof(...codec.types.map((c: t.Mixed) => inner(c)));
  if (codec instanceof t.BooleanType) return fc.oneof(fc.boolean(), hostileValue);
  if (codec instanceof t.NullType) return fc.constant(null);
  if (codec instanceof t.AnyDictionaryType) return fc.oneof(fc.dictionary(hostileString, hostileValue, { maxKeys: 4 }), fc.constantFrom(...bodyCodecs()).chain(inner));
  if (!(codec instanceof t.Type)) return hostileValue;
  const name = codec.name;
  const oneOf = /^one of (.+)$/.exec(name);
  if (oneOf) return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...oneOf[1]!.split(', ')) }, hostileValue);
  const range = /^an integer from (-?\d+) to (-?\d+)/.exec(name);
  if (range) {
    const [min, max] = [Number(range[1]), Number(range[2])];
    return fc.oneof({ weight: 3, arbitrary: fc.integer({ min, max }) }, fc.constantFrom(min, max, min - 1, max + 1, min + 0.5), hostileValue);
  }
  if (name === 'a UUID') return fc.oneof(fc.constantFrom(...knownIds()), fc.uuid(), fc.uuid().map((u) => u.toUpperCase()), hostileValue);
  if (name === 'an email address') return fc.oneof(fc.emailAddress(), hostileValue);
  if (/URL/.test(name)) return fc.oneof(fc.constantFrom('http://127.0.0.1:9/', 'https://127.0.0.1:9/x?y=1'), hostileValue);
  return fc.oneof(hostileString, hostileValue);
}

function mapProps(props: t.Props, arbitrary: (c: t.Decoder<unknown, unknown>) => fc.Arbitrary<unknown>): Record<string, fc.Arbitrary<unknown>> {
  return Object.fromEntries(Object.entries(props).map(([key, codec]) => [key, arbitrary(codec)]));
}

let discovered: t.Decoder<unknown, unknown>[] = [];

/** Every object codec the API decodes with, found in src/web/codecs (so a new one is fuzzed without anyone listing it). */
export async function discoverBodyCodecs(): Promise<t.Decoder<unknown, unknown>[]> {
  const dir = fileURLToPath(new URL('../../src/web/codecs/', import.meta.url));
  const found: t.Decoder<unknown, unknown>[] = [];
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.ts'))) {
    const module: Record<string, unknown> = await import(new URL(file, `file://${dir}`).href);
    for (const value of Object.values(module)) {
      if (isObjectCodec(value)) found.push(value);
      else if (typeof value === 'object' && value !== null) {
        // Tables of codecs, such as one config codec per channel type.
        for (const entry of Object.values(value)) {
          const codec: unknown = typeof entry === 'object' && entry !== null ? Reflect.get(entry, 'codec') : undefined;
          if (isObjectCodec(codec)) found.push(codec);
        }
      }
    }
  }
  discovered = found;
  return found;
}

function bodyCodecs(): t.Decoder<unknown, unknown>[] {
  return discovered.length > 0 ? discovered : [t.UnknownRecord];
}

function isObjectCodec(value: unknown): value is t.Decoder<unknown, unknown> {
  return value instanceof t.InterfaceType || value instanceof t.PartialType || value instanceof t.IntersectionType;
}

/** The property names those codecs know, for query strings and for bodies that put a bad value in a real field. */
export function fieldNames(codecs: readonly t.Decoder<unknown, unknown>[]): string[] {
  const names = new Set<string>();
  const walk = (codec: unknown): void => {
    if (codec instanceof t.InterfaceType || codec instanceof t.PartialType) {
      for (const [key, inner] of Object.entries<unknown>(codec.props)) {
        names.add(key);
        walk(inner);
      }
    } else if (codec instanceof t.IntersectionType || codec instanceof t.UnionType) codec.types.forEach(walk);
    else if (codec instanceof t.RefinementType || codec instanceof t.ArrayType) walk(codec.type);
  };
  codecs.forEach(walk);
  return [...names];
}

/**
 * Points every URL and host name in a body at 127.0.0.1, so no generated body can make the
 * diagnostic tools or a channel test reach past this machine.
 */
export function loopbackOnly(value: unknown): unknown {
  if (typeof value === 'string') return reachesOut(value) ? 'http://127.0.0.1:9/' : value;
  if (Array.isArray(value)) return value.map(loopbackOnly);
  if (typeof value !== 'object' || value === null) return value;
  const safe: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    Object.defineProperty(safe, key, { value: /host/i.test(key) ? '127.0.0.1' : loopbackOnly(inner), enumerable: true, writable: true, configurable: true });
  }
  return safe;
}

function reachesOut(text: string): boolean {
  try {
    const url = new URL(text);
    return url.hostname !== '' && url.hostname !== '127.0.0.1';
  } catch {
    return false;
  }
}
