import * as t from 'io-ts';
import { described } from '../../web/json-schema.js';

/** What the status page and badge key operations answer (see responses.ts for why these are codecs). */
const Id = described(t.string, { type: 'string', format: 'uuid' });
const Time = described(t.string, { type: 'string', format: 'date-time' });

export const StatusPage = t.type({
  id: Id,
  project_id: Id,
  slug: t.string,
  title: t.string,
  description: t.string,
  published: t.boolean,
  monitors: t.array(t.type({ monitor_id: Id, display_name: t.union([t.string, t.null]) })),
  public_path: t.string,
  created_at: Time,
  updated_at: Time,
});

export const BadgeKey = t.type({
  key: t.string,
  issued_at: Time,
  project_badge_path: t.string,
  monitor_badge_path: t.string,
  monitor_endpoint_path: t.string,
});

/** The shields.io endpoint schema. */
export const ShieldsEndpoint = t.type({ schemaVersion: t.literal(1), label: t.string, message: t.string, color: t.string });
