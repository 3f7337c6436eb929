import type * as t from 'io-ts';
import type { VigilEvent, VigilEventType } from '../domain/events.js';
import { auditEventCodecs } from './audit.js';
import { identityEventCodecs } from './identity.js';
import { incidentEventCodecs } from './incidents.js';
import { invitationEventCodecs } from './invitations.js';
import { listeningEventCodecs } from './listening.js';
import { maintenanceEventCodecs } from './maintenance.js';
import { monitorEventCodecs } from './monitors.js';
import { notificationEventCodecs } from './notifications.js';
import { onCallEventCodecs } from './on-call.js';
import { projectEventCodecs } from './projects.js';
import { secondFactorEventCodecs } from './second-factors.js';
import { ssoEventCodecs } from './sso.js';
import { peerEventCodecs } from './peers.js';
import { escalationEventCodecs } from './escalation.js';
import { statusPageEventCodecs } from './status-pages.js';

/**
 * The data codec of every event type, at its current version. `t.type`, not `t.exact`: a field
 * a newer Vigil added is kept as it is rather than failing an older reader (or being stripped, which
 * would also cost a copy of every event and change what the history shows).
 */
export const EVENT_CODECS = {
  ...identityEventCodecs,
  ...secondFactorEventCodecs,
  ...projectEventCodecs,
  ...invitationEventCodecs,
  ...monitorEventCodecs,
  ...incidentEventCodecs,
  ...notificationEventCodecs,
  ...statusPageEventCodecs,
  ...auditEventCodecs,
  ...maintenanceEventCodecs,
  ...listeningEventCodecs,
  ...ssoEventCodecs,
  ...peerEventCodecs,
  ...onCallEventCodecs,
  ...escalationEventCodecs,
} satisfies Record<VigilEventType, t.Mixed>;

export type EventData<K extends VigilEventType> = Extract<VigilEvent, { type: K }>['data'];

/** Each type as assignable both ways: intersections and flattened objects of the same fields agree. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** The event types whose codec and declared data disagree; `never` when none do. */
type Drifted = { [K in VigilEventType]: Same<t.TypeOf<(typeof EVENT_CODECS)[K]>, EventData<K>> extends true ? never : K }[VigilEventType];

/** Fails to compile when a decider's event type and its codec drift apart: "Property '<type>' is missing". */
const codecsAgree: Record<Drifted, 'its codec and its declared type differ'> = {};
void codecsAgree;

/**
 * The version each event type is written at; absent: 1. Bump it when a type's shape changes, and
 * add the upcaster from the version before (upcasters.ts).
 */
export const EVENT_VERSIONS: Partial<Record<VigilEventType, number>> = {
  MonitorCreated: 2,
  MonitorUpdated: 2,
  ProjectMonitorRemoved: 2,
  CheckCompleted: 2,
  ChecksSummarized: 2,
  CheckInMissed: 2,
  RunOverdue: 2,
  LogIntegrityChecked: 2,
  IncidentAcknowledged: 2,
  IncidentNoteAdded: 2,
  ChannelCreated: 2,
  ChannelUpdated: 2,
};

const VERSIONS: ReadonlyMap<string, number> = new Map(Object.entries(EVENT_VERSIONS));

export const currentVersion = (type: string): number => VERSIONS.get(type) ?? 1;
