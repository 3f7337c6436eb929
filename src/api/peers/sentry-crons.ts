import type { IncomingMessage } from 'node:http';
import { promisify } from 'node:util';
import { gunzip, inflate } from 'node:zlib';
import type { MonitorDocument } from '../../../projections/monitors.js';
import type { ProjectDocument } from '../../../projections/projects.js';
import { provisionOnFirstPing } from '../../app/auto-provisioning.js';
import { KeyedMutex } from '../../app/keyed-mutex.js';
import { recentPingKeys } from '../../app/recent-ping-keys.js';
import { updateMonitor } from '../../app/monitors.js';
import { assertConsistent } from '../../domain/monitors/monitor-config.js';
import type { PingKind } from '../../domain/monitors/pings.js';
import { slugify } from '../../domain/monitors/slug-claim.js';
import { provisionedConfig } from '../../domain/projects/auto-provisioning.js';
import { HttpError } from '../../web/errors.js';
import { ArrivalOrder } from './arrival-order.js';
import { type CappedBody, receiveBody } from '../raw-body.js';
import { jsonObject, parseEnvelope, sentryKeyFromAuth, sentryKeyFromDsn } from './sentry-envelope.js';
import { type SentryMonitorSettings, changes, configuredFrom, sentryMonitorSettings } from './sentry-monitor-config.js';
import { type PeerAnswer, type PeerPing, PeerPingCore, type PingOrigin } from './peer-serve.js';

/**
 * Sentry's envelope endpoint, `POST /api/<project>/envelope/`, for Sentry Crons: an SDK whose DSN
 * is `http://<project ping key>@<vigil host>/<any number>` sends its check-ins here. Each
 * `check_in` item is a ping (in_progress START, ok SUCCESS, error FAILURE; check_in_id the run,
 * duration the run's); its `monitor_config` creates the monitor by its slug (where the project
 * creates monitors on a first ping) or updates it. Other items (errors, transactions, sessions) are
 * accepted and ignored. Answered as Sentry's relay answers (`{}`, or `{"id": …}` for an envelope
 * with an event id), with no rate-limit header unless the request really is throttled, so the SDK
 * neither retries nor backs off.
 */
export const SENTRY_ENVELOPE_PATH = /^\/api\/\d{1,20}\/envelope\/?$/;

const STATUSES: Record<string, PingKind> = { in_progress: 'START', ok: 'SUCCESS', error: 'FAILURE' };
const gunzipAsync = promisify(gunzip);
const inflateAsync = promisify(inflate);

const json = (status: number, body: object, headers: Record<string, string> = {}): PeerAnswer => ({ status, body: JSON.stringify(body), contentType: 'application/json', headers });

/** Relay's error body is `{"detail": …}`. */
export const sentryRefusal = (status: number, message: string): PeerAnswer => json(status, { detail: message });

interface CheckIn {
  slug: string;
  kind: PingKind;
  runId: string | null;
  durationMs: number | null;
  settings: SentryMonitorSettings | null;
  /** What the check-in says beyond the fields Vigil maps (environment, release, trace…) as JSON, or null. */
  payload: string | null;
}

/** The check-in fields a ping or the monitor's settings already hold: not repeated in the payload. */
const MAPPED_FIELDS = new Set(['check_in_id', 'monitor_slug', 'status', 'duration', 'monitor_config']);

/**
 * Envelopes being answered in this process, by order of arrival. An SDK sends a job's
 * `in_progress` (with the monitor_config that creates the monitor) and its `ok` on two connections
 * at once, and the `ok`, smaller or read sooner, can be parsed first: before it is refused for
 * naming no monitor, the envelopes that arrived before it and are still under way are let finish
 * (AWAIT_CREATION_MS at most), as one of them may be the creation it follows. An envelope whose
 * check-ins can create nothing leaves as soon as it is parsed.
 */
const arrivals = new ArrivalOrder();
const AWAIT_CREATION_MS = 2_000;

export async function answerSentryEnvelope(core: PeerPingCore, request: IncomingMessage, query: URLSearchParams, origin: PingOrigin): Promise<PeerAnswer> {
  const arrival = arrivals.arrive();
  try {
    const { config } = core;
    if (request.method !== 'POST') return json(405, { detail: 'method not allowed: send envelopes by POST' }, { Allow: 'POST' });
    const limit = Math.max(config.payloadLimitBytes * 10, 10 * 1024 * 1024);
    const { kept } = await receiveBody(request, limit, limit, () => new HttpError(413, `envelope is larger than ${limit} bytes`), 'envelope was not received in full');
    const encoding = contentEncoding(request);
    // Nothing to inflate (as the SDKs send a check-in) is no await: each is a turn of the microtasks.
    const envelope = parseEnvelope(encoding === 'identity' ? kept : await inflated(kept, encoding, limit));
    const auth = request.headers['x-sentry-auth'];
    const pingKey =
      query.get('sentry_key') ?? sentryKeyFromAuth(typeof auth === 'string' ? auth : undefined) ?? sentryKeyFromAuth(request.headers.authorization) ?? sentryKeyFromDsn(envelope.header['dsn']);
    if (!pingKey) return json(401, { detail: 'missing authorization information: the DSN’s public key (sentry_key) is the project’s ping key' });
    const project = recentPingKeys.project(pingKey, core.deps.commands.clock().getTime()) ?? (await readProjectOfKey(core, pingKey));
    if (!project) throw core.unknownSecret(origin.address, new HttpError(403, 'the DSN’s public key is not the ping key of any project'));
    const checkIns: CheckIn[] = [];
    for (const item of envelope.items) if (item.header['type'] === 'check_in') checkIns.push(checkInOf(item.payload, checkIns.length));
    // A check-in that changes no settings, to a monitor the door knows by its slug (knownMonitors),
    // creates nothing, waits for nothing and takes no lock: the monitor's own command queue orders
    // its pings. That is nearly every check-in, so it is told apart first, and its envelope leaves
    // the arrivals at once (no other waits for it).
    const known = knownTargets(project, checkIns);
    if (known !== null) {
      arrivals.leave(arrival);
      return recordCheckIns(core, project, eventIdOf(envelope.header), checkIns, known, origin);
    }
    // A job's in_progress and ok go out on two connections at once; the first of a new monitor
    // creates it, and the other must wait for that to find it (the SDK sends each only once).
    await awaitCreationUnderWay(core, project, checkIns, arrival);
    const slugs = [...new Set(checkIns.filter((checkIn) => knownTarget(project, checkIn) === null).map((checkIn) => `${project.id}/${checkIn.slug}`))].sort();
    const judgedThenRecorded = async () => recordCheckIns(core, project, eventIdOf(envelope.header), checkIns, await targetsOf(core, project, checkIns), origin);
    const locked = slugs.reduceRight<() => Promise<PeerAnswer>>((inner, slug) => () => bySlug.run(slug, inner), judgedThenRecorded);
    // Awaited here, so that the envelope is under way until it has created what it creates.
    return await locked();
  } finally {
    arrivals.leave(arrival);
  }
}

/**
 * Lets the envelopes that arrived before this one finish, when one of its check-ins names no
 * monitor yet and has no monitor_config to create it (see arrivals). Before the slugs' locks are
 * taken: the creation it waits for takes the same lock.
 */
async function awaitCreationUnderWay(core: PeerPingCore, project: ProjectDocument, checkIns: readonly CheckIn[], arrival: number): Promise<void> {
  for (const checkIn of checkIns) {
    if (checkIn.settings !== null || knownMonitorId(project, checkIn.slug) !== null) continue;
    if ((await monitorBySlug(core, project, checkIn.slug)) !== null) continue;
    await arrivals.earlierLeft(arrival, AWAIT_CREATION_MS);
    return;
  }
}

/**
 * The project whose ping key a check-in carries, read from the read models where RecentPingKeys
 * has not kept it: read once a second per key at most, so the search by key is not on every
 * envelope's path.
 */
async function readProjectOfKey(core: PeerPingCore, pingKey: string): Promise<ProjectDocument | null> {
  const now = core.deps.commands.clock().getTime();
  const { readModels } = core.deps;
  const [found] = await core.lookTwice(() => readModels.find<ProjectDocument>('projects', { ping_key: pingKey }, { limit: 1 }), (projects) => projects.length > 0);
  if (!found) return null;
  recentPingKeys.keep(pingKey, found, now);
  return found.doc;
}

/** One lock per project and slug, in this process, for the check-ins that may create or change a slug's monitor to be decided in turn. */
const bySlug = new KeyedMutex();

/** Every check-in of an envelope, judged (`targets`) before any is recorded: a refusal stores nothing. */
async function recordCheckIns(core: PeerPingCore, project: ProjectDocument, eventId: string | null, checkIns: readonly CheckIn[], targets: readonly (Target | null)[], origin: PingOrigin): Promise<PeerAnswer> {
  const { config, deps } = core;
  const actor = { kind: 'system' as const, user_id: null, api_key_id: null, request_id: origin.requestId };
  let position: number | null = null;
  for (let index = 0; index < checkIns.length; index++) {
    const checkIn = checkIns[index]!;
    const target = targets[index]!;
    const ping = { kind: checkIn.kind, runId: checkIn.runId, exitCode: null, durationMs: checkIn.durationMs, message: null, body: capped(checkIn.payload, config.payloadLimitBytes) };
    let recorded;
    if (target === null) {
      const provisioned = await provisionOnFirstPing(deps.commands, {
        project_id: project.id,
        slug: checkIn.slug,
        request_ip: origin.address || null,
        request_ua: origin.userAgent,
        request_id: origin.requestId,
        configure: configuredFrom(checkIn.settings!),
      });
      recorded = await core.record(provisioned.monitorId, ping, origin);
    } else {
      if (checkIn.settings && target.current && changes(checkIn.settings.patch, target.current)) await updateMonitor(deps.commands, target.id, checkIn.settings.patch, actor);
      recorded = (await core.recordIfThere(target.id, ping, origin, checkIn.slug)) ?? (await recordOnceFoundAgain(core, project, checkIn.slug, ping, origin));
    }
    position = recorded.position ?? position;
  }
  return json(200, eventId === null ? {} : { id: eventId }, PeerPingCore.positionHeaders(position));
}

/** The envelope's event id, which relay answers with; check-ins' envelopes have none. */
function eventIdOf(header: Record<string, unknown>): string | null {
  const eventId = header['event_id'];
  return typeof eventId === 'string' ? eventId : null;
}

/**
 * For a check-in whose monitor was deleted or renamed since it was found by its slug: the slug
 * looked up again once the read models have caught up with the log, then the ping recorded, or
 * refused if no monitor has the slug.
 */
async function recordOnceFoundAgain(core: PeerPingCore, project: ProjectDocument, slug: string, ping: PeerPing, origin: PingOrigin) {
  knownMonitors.delete(`${project.id}/${slug}`);
  await core.readModelsCaughtUp();
  const again = await monitorBySlug(core, project, slug);
  const recorded = again === null ? null : await core.recordIfThere(again.id, ping, origin, slug);
  if (recorded === null) throw new HttpError(404, `no monitor has the slug ${slug} in this project`);
  return recorded;
}

/**
 * The monitor ids found by slug, by `<project id>/<slug>`: a job's check-ins name the same few
 * monitors again and again, and reading and parsing a monitor's document for each was most of
 * what a check-in cost beyond a ping by id. An id is kept until a ping to it is refused: each ping
 * names the slug it was addressed by, and the monitor's decider refuses it once the monitor has
 * another slug or is gone (then the slug is looked up again). A check-in with a monitor_config
 * always reads the document, to compare its settings.
 */
const knownMonitors = new Map<string, string>();
const KNOWN_KEPT = 10_000;

function knownMonitorId(project: ProjectDocument, slug: string): string | null {
  return knownMonitors.get(`${project.id}/${slug}`) ?? null;
}

async function monitorBySlug(core: PeerPingCore, project: ProjectDocument, slug: string): Promise<MonitorDocument | null> {
  const key = `${project.id}/${slug}`;
  const look = async () => (await core.deps.readModels.find<MonitorDocument>('monitors', { project_id: project.id, slug }, { limit: 1 }))[0]?.doc ?? null;
  const monitor = await core.lookTwice(look, (found) => found !== null);
  knownMonitors.delete(key);
  if (monitor) {
    if (knownMonitors.size >= KNOWN_KEPT) knownMonitors.delete(knownMonitors.keys().next().value!);
    knownMonitors.set(key, monitor.id);
  }
  return monitor;
}

/** A check-in's monitor: its id, and its document where the check-in's monitor_config is compared with it. */
interface Target {
  id: string;
  current: MonitorDocument | null;
}

/** The monitor of a check-in that changes no settings, where the door knows it by its slug (without an await, as nearly every check-in's). */
function knownTarget(project: ProjectDocument, checkIn: CheckIn): Target | null {
  const known = checkIn.settings === null ? knownMonitorId(project, checkIn.slug) : null;
  return known === null ? null : { id: known, current: null };
}

/** The monitors of an envelope's check-ins, where every one is a knownTarget; otherwise null. */
function knownTargets(project: ProjectDocument, checkIns: readonly CheckIn[]): Target[] | null {
  const targets: Target[] = [];
  for (const checkIn of checkIns) {
    const known = knownTarget(project, checkIn);
    if (known === null) return null;
    targets.push(known);
  }
  return targets;
}

/** The monitor of each check-in (see targetOf), looked up in turn: any refusal is thrown before anything is recorded. */
async function targetsOf(core: PeerPingCore, project: ProjectDocument, checkIns: readonly CheckIn[]): Promise<(Target | null)[]> {
  const targets: (Target | null)[] = [];
  for (const checkIn of checkIns) targets.push(await targetOf(core, project, checkIn));
  return targets;
}

/** The monitor a check-in names, or null for one its monitor_config is to create; refuses anything else. */
async function targetOf(core: PeerPingCore, project: ProjectDocument, checkIn: CheckIn): Promise<Target | null> {
  const known = knownTarget(project, checkIn);
  if (known !== null) return known;
  const monitor = await monitorBySlug(core, project, checkIn.slug);
  if (monitor) {
    if (checkIn.settings && checkIn.settings.type !== monitor.type) {
      throw new HttpError(400, `monitor ${checkIn.slug} is a ${monitor.type} monitor and its type cannot change; its monitor_config schedule makes it a ${checkIn.settings.type}`);
    }
    return { id: monitor.id, current: monitor };
  }
  if (!checkIn.settings) throw new HttpError(404, `no monitor has the slug ${checkIn.slug} in this project, and the check-in has no monitor_config to create it from`);
  if (!project.auto_provisioning.enabled) throw new HttpError(404, `no monitor has the slug ${checkIn.slug} in this project, which does not create monitors on a first ping (auto_provisioning)`);
  // What the creation will check, before the project counts it against its hourly cap.
  assertConsistent(configuredFrom(checkIn.settings)(provisionedConfig(project.auto_provisioning.defaults, checkIn.slug)), core.deps.commands.clock().toISOString());
  return null;
}

function checkInOf(payload: Buffer, index: number): CheckIn {
  const item = jsonObject(payload, `check_in item ${index + 1}`);
  const what = `check_in item ${index + 1}`;
  const slugGiven = item['monitor_slug'];
  if (typeof slugGiven !== 'string' || slugGiven.trim() === '') throw new HttpError(400, `${what}: monitor_slug is required`);
  const status = item['status'];
  const kind = typeof status === 'string' ? STATUSES[status] : undefined;
  if (!kind) throw new HttpError(400, `${what}: status must be in_progress, ok or error, not ${JSON.stringify(status)}`);
  const checkInId = item['check_in_id'];
  if (checkInId !== undefined && (typeof checkInId !== 'string' || checkInId.length > 128)) throw new HttpError(400, `${what}: check_in_id must be a string of at most 128 characters`);
  const duration = item['duration'];
  if (duration !== undefined && duration !== null && (typeof duration !== 'number' || !(duration >= 0) || duration * 1000 > 2_147_483_647)) {
    throw new HttpError(400, `${what}: duration must be a number of seconds from 0 to 2147483`);
  }
  const monitorConfig = item['monitor_config'];
  const settings = monitorConfig !== undefined && monitorConfig !== null ? sentryMonitorSettings(monitorConfig) : null;
  return {
    // As Sentry stores it: slugified (Vigil's slugs are lowercase letters, digits and hyphens, at most 50).
    slug: slugify(slugGiven),
    kind,
    runId: typeof checkInId === 'string' && checkInId !== '' ? checkInId : null,
    durationMs: typeof duration === 'number' ? Math.round(duration * 1000) : null,
    settings,
    // Last: it leaves the mapped fields out of the item.
    payload: unmapped(item),
  };
}

/** The body's Content-Encoding, lowercase; `identity` where none is named. */
function contentEncoding(request: IncomingMessage): string {
  const encoding = String(request.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  return encoding === '' ? 'identity' : encoding;
}

/** A gzip (or deflate) body inflated to at most `limit` bytes: a small body that inflates past it is a 413, never held in memory. */
async function inflated(body: Buffer, encoding: string, limit: number): Promise<Buffer> {
  const inflater = encoding === 'gzip' || encoding === 'x-gzip' ? gunzipAsync : encoding === 'deflate' ? inflateAsync : null;
  if (inflater === null) throw new HttpError(415, `Content-Encoding ${encoding} is not supported: send gzip, deflate or none`);
  try {
    return await inflater(body, { maxOutputLength: limit });
  } catch (error) {
    if (error instanceof RangeError) throw new HttpError(413, `envelope is larger than ${limit} bytes once decompressed`);
    throw new HttpError(400, `the body is not valid ${encoding} data`);
  }
}

/**
 * The check-in's other fields as JSON, kept as the ping's payload: a job's every check-in would
 * otherwise store its status, run and slug twice, and the bytes each ping writes are what limits
 * ping rates. The mapped fields are set to undefined, which JSON leaves out, rather than deleted,
 * which would turn the object into a slower dictionary; the item is not read again.
 */
function unmapped(item: Record<string, unknown>): string | null {
  let other = false;
  for (const field in item) {
    if (!MAPPED_FIELDS.has(field)) {
      other = true;
      break;
    }
  }
  if (!other) return null;
  for (const field of MAPPED_FIELDS) if (field in item) item[field] = undefined;
  return JSON.stringify(item);
}

/** A check-in's payload, cut to the Ping API's limit and flagged when it was. */
function capped(payload: string | null, limit: number): CappedBody | null {
  if (payload === null) return null;
  const bytes = Buffer.byteLength(payload);
  if (bytes <= limit) return { text: payload, bytes, truncated: false };
  return { text: new TextDecoder().decode(Buffer.from(payload).subarray(0, limit), { stream: true }), bytes, truncated: true };
}
