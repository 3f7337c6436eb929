import type { LogIntegrityEvent } from './audit/log-integrity.js';
import type { ApiKeyUseEvent } from './identity/api-key-use.js';
import type { EmailClaimEvent } from './identity/email-claim.js';
import type { SecondFactorEvent } from './identity/second-factors.js';
import type { OidcSubjectEvent } from './identity/oidc-subject.js';
import type { SignInEvent } from './identity/sign-ins.js';
import type { UserEvent } from './identity/user.js';
import type { IncidentNoteEvent } from './incidents/incident-notes.js';
import type { IncidentRecordEvent } from './incidents/incident-record.js';
import type { ListeningEvent } from './listening/listening.js';
import type { MaintenanceWindowEvent } from './maintenance/window.js';
import type { MonitorEvent } from './monitors/monitor.js';
import type { SlugClaimEvent } from './monitors/slug-claim.js';
import type { PeerAliasEvent } from './peers/peer-alias.js';
import type { ChannelEvent } from './notifications/channel.js';
import type { GroupEvent } from './notifications/group.js';
import type { PageEvent } from './notifications/page.js';
import type { OnCallScheduleEvent } from './on-call/schedule.js';
import type { ProjectEvent } from './projects/project.js';
import type { StatusPageSlugEvent } from './status-pages/slug-claim.js';
import type { StatusPageEvent } from './status-pages/status-page.js';
import type { EscalationPolicyEvent } from './escalation/policy.js';
import type { EscalationEvent } from './escalation/escalation.js';

/** Every event Vigil records, across all stream types. */
export type VigilEvent = UserEvent | ApiKeyUseEvent | SecondFactorEvent | EmailClaimEvent | SignInEvent | OidcSubjectEvent | ProjectEvent | MonitorEvent | SlugClaimEvent | ChannelEvent | GroupEvent | PageEvent | IncidentRecordEvent | IncidentNoteEvent | StatusPageEvent | StatusPageSlugEvent | LogIntegrityEvent | MaintenanceWindowEvent | ListeningEvent | PeerAliasEvent | OnCallScheduleEvent | EscalationPolicyEvent | EscalationEvent;
export type VigilEventType = VigilEvent['type'];

/** Every event type, checked by the compiler to name each one exactly once. */
const EVENT_TYPES: Record<VigilEventType, true> = {
  UserRegistered: true, ApiKeyCreated: true, ApiKeyRevoked: true, ApiKeyUsed: true, EmailClaimed: true,
  TotpFactorAdded: true, PasskeyAdded: true, SecondFactorRemoved: true, RecoveryCodesGenerated: true, RecoveryCodeUsed: true, SecondFactorUsed: true, SecondFactorFailed: true,
  UserSignedIn: true, UserSignInFailed: true, UserSessionEnded: true, UserRenamed: true, PasswordSet: true, PasswordResetRequested: true,
  OidcSubjectLinked: true,
  ProjectCreated: true, ProjectUpdated: true, ProjectMemberAdded: true, ProjectMemberRoleChanged: true, ProjectMemberRemoved: true,
  ProjectPingKeyRotated: true, ProjectDeleted: true, ProjectMonitorRemoved: true, ProjectMonitorStreamsDeleted: true,
  ProjectAutoProvisioningConfigured: true, MonitorAutoProvisioned: true,
  InvitationIssued: true, InvitationAccepted: true, InvitationRevoked: true,
  MonitorCreated: true, MonitorUpdated: true, MonitorPaused: true, MonitorResumed: true, MonitorCountersReset: true, MonitorWentDown: true,
  MonitorWentUp: true, CheckInMissed: true, RunOverdue: true, PingReceived: true, CheckCompleted: true, ChecksSummarized: true, IncidentOpened: true, IncidentCausedUpstream: true,
  IncidentAcknowledged: true, IncidentResolved: true, MonitorDeleted: true, PageScheduled: true, AlertsPaused: true,
  SlugClaimed: true, SlugReleased: true, ChannelCreated: true, ChannelUpdated: true, ChannelDeleted: true,
  GroupCreated: true, GroupUpdated: true, GroupChannelAttached: true, GroupChannelDetached: true, GroupDeleted: true,
  PageFannedOut: true, PageDelivered: true, PageDeliveryFailed: true, DeliveryHeld: true, IncidentEvidenceRecorded: true, IncidentArchived: true,
  IncidentNoteAdded: true,
  ProjectBadgeKeyIssued: true, StatusPageCreated: true, StatusPageUpdated: true, StatusPageDeleted: true, StatusPageSlugClaimed: true, StatusPageSlugReleased: true,
  LogIntegrityChecked: true,
  MaintenanceWindowScheduled: true, MaintenanceWindowUpdated: true, MaintenanceWindowEnded: true, IncidentSuppressed: true, SuppressedIncidentCleared: true, RepageHeld: true,
  CheckInUnheard: true, RunUnheard: true, ListeningConfirmed: true, ListeningInterrupted: true,
  PeerAliasClaimed: true,
  OnCallScheduleCreated: true, OnCallScheduleUpdated: true, OnCallScheduleDeleted: true,
  EscalationPolicyCreated: true, EscalationPolicyUpdated: true, EscalationPolicyDeleted: true,
  EscalationStarted: true, EscalationStepReached: true, EscalationStepHeld: true, EscalationStopped: true,
};
export const ALL_EVENT_TYPES = Object.keys(EVENT_TYPES) as VigilEventType[];
