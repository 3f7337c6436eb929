import type { Projection } from '../src/projector/projection.js';
import type { RetiredProjection } from '../src/readstore/read-model-store.js';
import { apiKeysProjection } from './api-keys.js';
import { auditEventsProjection } from './audit-events.js';
import { badgeKeysProjection } from './badge-keys.js';
import { checkDaysProjection } from './check-days.js';
import { statusPagesProjection } from './status-pages.js';
import { notificationChannelsProjection } from './notification-channels.js';
import { notificationGroupsProjection } from './notification-groups.js';
import { deliveriesProjection, pendingPagesProjection } from './outbox.js';
import { checkHoursProjection, latestCheckResultsProjection } from './check-results.js';
import { deadlinesProjection } from './deadlines.js';
import { deletedMonitorsProjection } from './deleted-monitors.js';
import { incidentHistoryProjection } from './incident-history.js';
import { incidentNotesProjection } from './incident-notes.js';
import { incidentsProjection } from './incidents.js';
import { invitationsProjection } from './invitations.js';
import { logIntegrityProjection } from './log-integrity.js';
import { monitorDependenciesProjection } from './monitor-dependencies.js';
import { maintenanceWindowsProjection } from './maintenance-windows.js';
import { monitorRemovalsProjection } from './monitor-removals.js';
import { monitorsProjection } from './monitors.js';
import { onCallSchedulesProjection } from './on-call-schedules.js';
import { peerAliasesProjection } from './peer-aliases.js';
import { projectMembersProjection } from './project-members.js';
import { projectsProjection } from './projects.js';
import { secondFactorsProjection } from './second-factors.js';
import { usersProjection } from './users.js';
import { escalationPoliciesProjection } from './escalation-policies.js';
import { escalationsProjection } from './escalations.js';

/**
 * Read models earlier versions built and this one does not: data files written by them still hold
 * the collections, dropped when a projector first starts.
 */
export const RETIRED_PROJECTIONS: readonly RetiredProjection[] = [
  // The ping history is read from the history's entries (src/queries/pings.ts).
  { name: 'pings', collections: ['pings'] },
];

/** Every read model Vigil serves queries from. */
export function allProjections(): Projection[] {
  return [usersProjection, projectsProjection, projectMembersProjection, apiKeysProjection, monitorsProjection, incidentsProjection, deadlinesProjection, latestCheckResultsProjection, checkHoursProjection,
    notificationChannelsProjection, notificationGroupsProjection, pendingPagesProjection, deliveriesProjection, monitorRemovalsProjection, auditEventsProjection, incidentHistoryProjection,
    incidentNotesProjection, badgeKeysProjection, statusPagesProjection, checkDaysProjection, logIntegrityProjection,
    deletedMonitorsProjection, monitorDependenciesProjection, maintenanceWindowsProjection, secondFactorsProjection, invitationsProjection, peerAliasesProjection,
    onCallSchedulesProjection, escalationPoliciesProjection, escalationsProjection] as Projection[];
}
