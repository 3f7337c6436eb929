import * as t from 'io-ts';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { VigilEvent, VigilEventType } from '../domain/events.js';
import type { JsonObject, JsonValue, RecordedEvent } from '../eventstore/event-store.js';
import { EVENT_CODECS, currentVersion } from './registry.js';
import { UPCASTERS } from './upcasters.js';

/** The metadata field that says which version of its type an event's data is; absent means 1. */
export const SCHEMA_VERSION = 'schema_version';

/** An event in the log that Vigil cannot read: where it is, and what is wrong with it. */
export class EventDecodeError extends Error {
  constructor(
    readonly streamName: string,
    readonly revision: number,
    readonly eventType: string,
    readonly problem: string,
  ) {
    super(`event ${eventType} at ${streamName}@${revision} cannot be read: ${problem}`);
    this.name = 'EventDecodeError';
  }
}

const isEventType = (type: string): type is VigilEventType => Object.hasOwn(EVENT_CODECS, type);

/** The version an event was written at, as its metadata says. */
export function schemaVersion(metadata: JsonObject): number | null {
  const version: JsonValue | undefined = metadata[SCHEMA_VERSION];
  if (version === undefined) return 1;
  return typeof version === 'number' && Number.isInteger(version) && version >= 1 ? version : null;
}

/**
 * The domain event a recorded one holds: its data brought up to the type's current version by the
 * upcasters, then checked by the type's codec. A newer version than this Vigil knows is read as
 * the current one, which succeeds where the change only added fields. Anything else throws an
 * EventDecodeError naming the stream, revision, type and the failing field's path.
 */
export function decodeEvent(recorded: RecordedEvent): VigilEvent {
  const { type, streamName, revision } = recorded;
  const fail = (problem: string) => new EventDecodeError(streamName, revision, type, problem);
  if (!isEventType(type)) throw fail('unknown event type');
  const written = schemaVersion(recorded.metadata);
  if (written === null) throw fail(`${SCHEMA_VERSION} ${JSON.stringify(recorded.metadata[SCHEMA_VERSION])} is not a version`);
  let data = recorded.data;
  for (let version = written; version < currentVersion(type); version += 1) {
    const upcast = UPCASTERS[type]?.[version];
    if (!upcast) throw fail(`no upcaster from version ${version}`);
    data = upcast(data);
  }
  const result = EVENT_CODECS[type].decode(data);
  if (isLeft(result)) throw fail(describeErrors(result.left));
  // The codec was chosen by `type`, so the data is that type's; the compiler cannot pair the two unions.
  return { type, data: result.right } as VigilEvent;
}

/**
 * The first few failures as `data.<path>: expected <type>, got <value>`. A nullable field's
 * failure is told once, through its non-null member, and a leaf under a union names the union.
 */
export function describeErrors(errors: t.Errors): string {
  const lines = new Set<string>();
  for (const { context, value } of errors) {
    if (context.some((entry) => entry.type instanceof t.NullType)) continue;
    const keys = context.slice(1).filter((_, i) => !isCombinator(context[i]!.type)).map((entry) => entry.key);
    const parent = context.at(-2)?.type;
    const expected = parent instanceof t.UnionType ? parent.name : (context.at(-1)?.type.name ?? 'a value');
    lines.add(`${['data', ...keys].join('.')}: expected ${clipped(expected)}, got ${shown(value)}`);
    if (lines.size === 3) break;
  }
  return lines.size > 0 ? [...lines].join('; ') : 'does not match its type';
}

const isCombinator = (type: t.Decoder<unknown, unknown>) => type instanceof t.UnionType || type instanceof t.IntersectionType;

const clipped = (text: string) => (text.length > 80 ? `${text.slice(0, 77)}...` : text);

function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  return clipped(JSON.stringify(value));
}
