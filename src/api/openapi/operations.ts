import * as t from 'io-ts';
import { ALL_EVENT_TYPES } from '../../domain/events.js';
import { INCIDENT_KINDS, INCIDENT_STATUSES } from '../../domain/monitors/incidents.js';
import { PING_KINDS } from '../../domain/monitors/pings.js';
import { CreateApiKeyBody } from '../../web/codecs/api-keys.js';
import { AddNoteBody } from '../../web/codecs/incident-notes.js';
import { CreateMonitorBody, UpdateMonitorBody } from '../../web/codecs/monitors.js';
import { AttachChannelBody, CreateChannelBody, CreateGroupBody, UpdateChannelBody, UpdateGroupBody } from '../../web/codecs/notifications.js';
import { AddMemberBody, ChangeMemberBody, CreateProjectBody, UpdateProjectBody } from '../../web/codecs/projects.js';
import {
  AsOfQuery,
  HistoryRangeQuery,
  IncidentListQuery,
  PageQuery,
  PeriodQuery,
  PingHistoryQuery,
  ProjectScopeQuery,
} from '../../web/codecs/queries.js';
import { CheckDnsBody, CheckHttpBody, CheckSslBody } from '../../web/codecs/tools.js';
import { PingQuery } from '../ping-api.js';
import { TOOL_RUNS_PER_MINUTE } from '../tool-runs.js';
import * as R from './responses.js';
import * as S from './status-page-responses.js';
import { CreateStatusPageBody, UpdateStatusPageBody } from '../../web/codecs/status-pages.js';
import { CreateMaintenanceWindowBody, UpdateMaintenanceWindowBody } from '../../web/codecs/maintenance.js';
import { CreateEscalationPolicyBody, DeleteEscalationPolicyQuery, UpdateEscalationPolicyBody } from '../../web/codecs/escalation-policies.js';
import * as M from './maintenance-responses.js';
import * as O from './on-call-responses.js';
import { CreateOnCallScheduleBody, UpdateOnCallScheduleBody } from '../../web/codecs/on-call.js';
import * as I from './invitation-responses.js';
import { AcceptInvitationBody, InviteBody } from '../../web/codecs/invitations.js';

/**
 * Every route the server answers, with the codecs its handler decodes. The OpenAPI document is
 * built from this list, and a spec walks the routers and fails on any route missing here.
 */
export interface Operation {
  method: 'get' | 'post' | 'patch' | 'delete' | 'head';
  /** Koa-style, with its prefix: `/v1/monitors/:monitorId`. */
  path: string;
  tag: string;
  summary: string;
  /** Who may call it (scope, key kind, role), in words. */
  access?: string;
  description?: string;
  query?: t.PartialType<t.Props>;
  /** Comma-separated list filters, which are parsed apart from the codecs. */
  listFilters?: Record<string, readonly string[]>;
  body?: t.Any;
  /** The raw request body is the payload (the Ping API). */
  payload?: boolean;
  success: { status: 200 | 201 | 204; description: string; body?: t.Any; contentType?: string };
  /** Unauthenticated: the Ping API and the operator endpoints. */
  public?: boolean;
}

const READ = 'Scope `read`; any role in the project.';
const CREATE_MONITOR = 'Scope `manage_monitors`; role MEMBER or higher. Project keys may call it.';
const RUN_TOOL = `${CREATE_MONITOR} As creating a monitor, in the project \`project_id\` names (a project key's own by default); at most ${TOOL_RUNS_PER_MINUTE} runs a minute for each user, then 429.`;
const MANAGE_MONITOR = 'Scope `manage_monitors`; role MANAGER or higher. Project keys may call it.';
const MANAGE_PROJECT = 'Account key with scope `manage_projects`; role MANAGER or higher.';
const MANAGE_NOTIFICATIONS = 'Account key with scope `manage_notifications`; role MANAGER or higher.';
const DESTROY = 'Account key with scope `destroy`; role OWNER.';
const PAGE_100 = PageQuery(100);
const PAGE_200 = PageQuery(200);

const merge = (...parts: t.PartialType<t.Props>[]) => t.partial(Object.assign({}, ...parts.map((part) => part.props)));

/** The tag an operation is listed under in the explorer, and its one-line summary. */
const about = (tag: string, summary: string) => ({ tag, summary });

export const OPERATIONS: readonly Operation[] = [
  // Projects
  { method: 'get', path: '/v1/projects', ...about('Projects', 'List the projects the key can reach'), access: READ, success: { status: 200, description: 'The projects', body: t.type({ projects: t.array(R.Project) }) } },
  { method: 'post', path: '/v1/projects', ...about('Projects', 'Create a project (the caller becomes its OWNER)'), access: 'Account key with scope `manage_projects`.', body: CreateProjectBody, success: { status: 201, description: 'The new project', body: t.type({ project: R.Project }) } },
  { method: 'get', path: '/v1/projects/:projectId', ...about('Projects', 'Read a project with its members'), access: READ, success: { status: 200, description: 'The project', body: t.type({ project: R.Project }) } },
  { method: 'patch', path: '/v1/projects/:projectId', ...about('Projects', 'Rename or describe a project'), access: MANAGE_PROJECT, body: UpdateProjectBody, success: { status: 200, description: 'The project', body: t.type({ project: R.Project }) } },
  { method: 'delete', path: '/v1/projects/:projectId', ...about('Projects', 'Delete a project with its monitors, pings and keys'), access: DESTROY, success: { status: 204, description: 'Deleted' } },
  { method: 'post', path: '/v1/projects/:projectId/ping-key/rotate', ...about('Projects', 'Issue a new ping key (the old one stops working)'), access: MANAGE_PROJECT, success: { status: 200, description: 'The project with its new ping key', body: t.type({ project: R.Project }) } },
  { method: 'post', path: '/v1/projects/:projectId/members', ...about('Projects', 'Add a member by user_id, or invite an email (never looked up: the answer is the same whether or not it has an account)'), access: MANAGE_PROJECT, body: AddMemberBody, success: { status: 201, description: 'By user_id: the member. By email: the invitation and its link, as POST /v1/projects/{projectId}/invitations answers', body: t.union([t.type({ member: R.Member }), I.IssuedInvitation]) } },
  { method: 'patch', path: '/v1/projects/:projectId/members/:userId', ...about('Projects', "Change a member's role"), access: MANAGE_PROJECT, body: ChangeMemberBody, success: { status: 200, description: 'The member', body: t.type({ member: R.Member }) } },
  { method: 'delete', path: '/v1/projects/:projectId/members/:userId', ...about('Projects', 'Remove a member'), access: MANAGE_PROJECT, success: { status: 204, description: 'Removed' } },
  { method: 'get', path: '/v1/projects/:projectId/invitations', ...about('Invitations', 'Invitations still waiting for an answer (open or expired)'), access: MANAGE_PROJECT, success: { status: 200, description: 'The invitations', body: t.type({ invitations: t.array(I.Invitation) }) } },
  { method: 'post', path: '/v1/projects/:projectId/invitations', ...about('Invitations', 'Invite an email address with a role (the link is shown once; mailed where SMTP is set)'), access: `${MANAGE_PROJECT} No role above the caller's own. The answer is the same whether or not the address has an account.`, body: InviteBody, success: { status: 201, description: 'The invitation and its link', body: I.IssuedInvitation } },
  { method: 'delete', path: '/v1/projects/:projectId/invitations/:invitationId', ...about('Invitations', 'Revoke an invitation (its link stops working)'), access: MANAGE_PROJECT, success: { status: 204, description: 'Revoked' } },
  { method: 'post', path: '/v1/invitations/accept', ...about('Invitations', "Accept an invitation by its link's token: the key's user joins with its role"), access: 'Account key with scope `read`; only the user whose email address the invitation names.', body: AcceptInvitationBody, success: { status: 200, description: 'The new member', body: t.type({ member: R.Member }) } },
  { method: 'get', path: '/v1/projects/:projectId/events', ...about('History', "The project's recorded events but its pings (each monitor's history has them), oldest first"), access: READ, query: merge(PAGE_200, HistoryRangeQuery), listFilters: { type: ALL_EVENT_TYPES }, success: { status: 200, description: 'A page of events', body: R.PageOf(R.RecordedEvent) } },
  { method: 'get', path: '/v1/projects/:projectId/uptime-summary', ...about('Uptime', 'Uptime of every HTTP monitor of the project'), access: READ, query: PeriodQuery, success: { status: 200, description: 'Per-monitor and overall uptime', body: R.UptimeSummary } },

  // API keys
  { method: 'get', path: '/v1/api-keys', ...about('API keys', "The caller's keys (never their values)"), access: 'Any key with scope `read`; a project key sees only keys of its project.', success: { status: 200, description: 'The keys', body: t.type({ api_keys: t.array(R.ApiKey) }) } },
  { method: 'post', path: '/v1/api-keys', ...about('API keys', 'Mint a key (shown once)'), access: 'A key can only mint keys with no more power than itself and expiring no later.', body: CreateApiKeyBody, success: { status: 201, description: 'The key and its value, shown this once', body: t.type({ api_key: R.ApiKey, key: t.string }) } },
  { method: 'delete', path: '/v1/api-keys/:apiKeyId', ...about('API keys', 'Revoke a key'), access: 'The key itself, or a key of the same user with at least its power.', success: { status: 204, description: 'Revoked' } },

  // Monitors
  { method: 'get', path: '/v1/monitors', ...about('Monitors', "List a project's monitors"), access: READ, query: ProjectScopeQuery, success: { status: 200, description: 'The monitors', body: t.type({ monitors: t.array(R.Monitor) }) } },
  { method: 'post', path: '/v1/monitors', ...about('Monitors', 'Create a monitor'), access: CREATE_MONITOR, body: CreateMonitorBody, success: { status: 201, description: 'The new monitor', body: t.type({ message: t.string, monitor: R.Monitor }) } },
  { method: 'get', path: '/v1/monitors/:monitorId', ...about('Monitors', 'Read a monitor, now or as it stood at `as_of`'), access: READ, query: AsOfQuery, success: { status: 200, description: 'The monitor', body: t.intersection([t.type({ monitor: R.Monitor }), t.partial({ as_of: t.string })]) } },
  { method: 'patch', path: '/v1/monitors/:monitorId', ...about('Monitors', 'Change a monitor; `status` PAUSED pauses, UP resumes and forces it up'), access: MANAGE_MONITOR, body: UpdateMonitorBody, success: { status: 200, description: 'The monitor', body: t.type({ monitor: R.Monitor }) } },
  { method: 'delete', path: '/v1/monitors/:monitorId', ...about('Monitors', 'Delete a monitor and its pings (its incidents stay readable)'), access: MANAGE_MONITOR, success: { status: 204, description: 'Deleted' } },
  { method: 'post', path: '/v1/monitors/:monitorId/pause', ...about('Monitors', 'Pause a monitor'), access: MANAGE_MONITOR, success: { status: 200, description: 'The monitor', body: t.type({ monitor: R.Monitor }) } },
  { method: 'post', path: '/v1/monitors/:monitorId/resume', ...about('Monitors', 'Resume a paused monitor'), access: MANAGE_MONITOR, success: { status: 200, description: 'The monitor', body: t.type({ monitor: R.Monitor }) } },
  { method: 'get', path: '/v1/monitors/:monitorId/incidents', ...about('Incidents', "A monitor's incidents, newest first"), access: READ, query: PAGE_200, listFilters: { status: INCIDENT_STATUSES, event: INCIDENT_KINDS }, success: { status: 200, description: 'A page of incidents', body: R.PageOf(R.Incident) } },
  { method: 'get', path: '/v1/monitors/:monitorId/pings', ...about('Pings', "A monitor's ping history, newest first (payloads cut to 256 characters)"), access: READ, query: merge(PAGE_100, PingHistoryQuery), listFilters: { event: PING_KINDS }, success: { status: 200, description: 'A page of pings', body: R.PageOf(R.Ping) } },
  { method: 'get', path: '/v1/monitors/:monitorId/pings/:pingId', ...about('Pings', 'One ping with its full payload'), access: READ, success: { status: 200, description: 'The ping', body: t.type({ ping: R.PingDetail }) } },
  { method: 'get', path: '/v1/monitors/:monitorId/schedule', ...about('Monitors', 'The next expected check-ins'), access: READ, success: { status: 200, description: 'The schedule preview', body: R.Schedule } },
  { method: 'get', path: '/v1/monitors/:monitorId/warnings', ...about('Monitors', 'Integration warnings from the last 7 days of pings'), access: READ, success: { status: 200, description: 'Warnings', body: R.Warnings } },
  { method: 'get', path: '/v1/monitors/:monitorId/events', ...about('History', "The monitor's recorded events, the pings retention keeps among them, oldest first"), access: READ, query: merge(PAGE_200, HistoryRangeQuery), listFilters: { type: ALL_EVENT_TYPES }, success: { status: 200, description: 'A page of events', body: R.PageOf(R.RecordedEvent) } },
  { method: 'get', path: '/v1/monitors/:monitorId/check-results/latest', ...about('Uptime', 'The latest HTTP check'), access: READ, success: { status: 200, description: 'The latest check result', body: R.CheckResult } },
  { method: 'get', path: '/v1/monitors/:monitorId/response-time-stats', ...about('Uptime', 'Response times and uptime over a period'), access: READ, query: PeriodQuery, success: { status: 200, description: 'Statistics', body: R.UptimeStats } },

  // Incidents
  { method: 'get', path: '/v1/incidents', ...about('Incidents', "A project's incidents, newest first, now or as they stood at `as_of`"), access: READ, query: merge(PAGE_200, IncidentListQuery), listFilters: { status: INCIDENT_STATUSES, event: INCIDENT_KINDS }, success: { status: 200, description: 'A page of incidents', body: t.intersection([R.PageOf(R.Incident), t.partial({ as_of: t.string })]) } },
  { method: 'get', path: '/v1/incidents/:incidentId', ...about('Incidents', 'Read an incident'), access: READ, success: { status: 200, description: 'The incident', body: t.type({ incident: R.Incident }) } },
  { method: 'get', path: '/v1/incidents/:incidentId/timeline', ...about('Incidents', 'What happened, from the observations that opened it to its resolution'), access: READ, success: { status: 200, description: 'The timeline', body: R.Timeline } },
  { method: 'post', path: '/v1/incidents/:incidentId/acknowledge', ...about('Incidents', 'Acknowledge an open incident (stops re-paging)'), access: 'Scope `manage_monitors`; role MEMBER or higher.', success: { status: 200, description: 'The incident', body: t.type({ incident: R.Incident }) } },
  { method: 'post', path: '/v1/incidents/:incidentId/resolve', ...about('Incidents', 'Resolve an incident'), access: 'Scope `manage_monitors`; role MEMBER or higher.', success: { status: 200, description: 'The incident', body: t.type({ incident: R.Incident }) } },
  { method: 'get', path: '/v1/incidents/:incidentId/notes', ...about('Incidents', "An incident's notes and postmortems, oldest first"), access: READ, success: { status: 200, description: 'The notes, public and internal', body: t.type({ notes: t.array(R.IncidentNote) }) } },
  {
    method: 'post', path: '/v1/incidents/:incidentId/notes', ...about('Incidents', 'Add a note to an open incident, or a postmortem to a resolved one'), access: 'Scope `manage_monitors`; role MEMBER or higher.',
    description: 'A `note` (the default `kind`) is taken while the incident is OPEN or ACKNOWLEDGED, a `postmortem` once it is RESOLVED (several may be written; the newest is the current one); otherwise 400. `visibility` defaults to `internal`; `public` ones are what a status page may show. An incident archived with its deleted monitor takes no more notes (400).',
    body: AddNoteBody, success: { status: 201, description: 'The note as recorded', body: t.type({ note: R.IncidentNote }) },
  },

  // Notifications
  { method: 'get', path: '/v1/notification-channels/types', ...about('Notifications', 'Channel types and their config fields'), access: READ, success: { status: 200, description: 'The types', body: t.type({ types: t.array(t.type({ type: t.string, name: t.string, config_schema: t.UnknownRecord })) }) } },
  { method: 'get', path: '/v1/notification-channels', ...about('Notifications', "A project's channels"), access: READ, query: ProjectScopeQuery, success: { status: 200, description: 'The channels', body: t.array(R.ChannelItem) } },
  { method: 'post', path: '/v1/notification-channels', ...about('Notifications', 'Create a channel (its config is encrypted before it is stored)'), access: MANAGE_NOTIFICATIONS, body: CreateChannelBody, success: { status: 201, description: 'The channel (and, for a webhook without a secret, the generated signing secret, shown once)', body: t.intersection([t.type({ channel: R.Channel }), t.partial({ signing_secret: t.string })]) } },
  { method: 'get', path: '/v1/notification-channels/:channelId', ...about('Notifications', 'Read a channel (which config fields are set, never their values)'), access: READ, success: { status: 200, description: 'The channel', body: t.type({ channel: R.Channel }) } },
  { method: 'patch', path: '/v1/notification-channels/:channelId', ...about('Notifications', 'Change a channel'), access: MANAGE_NOTIFICATIONS, body: UpdateChannelBody, success: { status: 200, description: 'The channel', body: t.type({ channel: R.Channel }) } },
  { method: 'delete', path: '/v1/notification-channels/:channelId', ...about('Notifications', 'Delete a channel'), access: DESTROY, success: { status: 204, description: 'Deleted' } },
  { method: 'post', path: '/v1/notification-channels/:channelId/test', ...about('Notifications', 'Send a test message through a channel'), access: MANAGE_NOTIFICATIONS, success: { status: 200, description: 'Whether it was delivered', body: t.type({ ok: t.literal(true), delivered: t.boolean, error: t.union([t.string, t.null]), tested_at: t.string }) } },
  { method: 'get', path: '/v1/notification-groups', ...about('Notifications', "A project's notification groups"), access: READ, query: ProjectScopeQuery, success: { status: 200, description: 'The groups', body: t.array(R.GroupItem) } },
  { method: 'post', path: '/v1/notification-groups', ...about('Notifications', 'Create a notification group'), access: MANAGE_NOTIFICATIONS, body: CreateGroupBody, success: { status: 201, description: 'The group', body: t.type({ group: R.GroupDetail }) } },
  { method: 'get', path: '/v1/notification-groups/:groupId', ...about('Notifications', 'Read a group with its channels'), access: READ, success: { status: 200, description: 'The group', body: t.type({ group: R.GroupDetail }) } },
  { method: 'patch', path: '/v1/notification-groups/:groupId', ...about('Notifications', 'Change a group'), access: MANAGE_NOTIFICATIONS, body: UpdateGroupBody, success: { status: 200, description: 'The group', body: t.type({ group: R.GroupDetail }) } },
  { method: 'delete', path: '/v1/notification-groups/:groupId', ...about('Notifications', 'Delete a group'), access: DESTROY, success: { status: 204, description: 'Deleted' } },
  { method: 'get', path: '/v1/notification-groups/:groupId/channels', ...about('Notifications', "A group's channels"), access: READ, success: { status: 200, description: 'The channels', body: t.array(R.ChannelItem) } },
  { method: 'post', path: '/v1/notification-groups/:groupId/channels', ...about('Notifications', 'Add a channel to a group'), access: MANAGE_NOTIFICATIONS, body: AttachChannelBody, success: { status: 204, description: 'Added' } },
  { method: 'delete', path: '/v1/notification-groups/:groupId/channels/:channelId', ...about('Notifications', 'Take a channel out of a group'), access: MANAGE_NOTIFICATIONS, success: { status: 204, description: 'Removed' } },
  { method: 'get', path: '/v1/on-call-schedules', ...about('On call', "A project's on-call schedules, with who is on call now and next"), access: READ, query: ProjectScopeQuery, success: { status: 200, description: 'The schedules', body: t.type({ on_call_schedules: t.array(O.OnCallSchedule) }) } },
  { method: 'post', path: '/v1/on-call-schedules', ...about('On call', 'Create an on-call schedule: a rotation of project members with a hand-off time in a zone'), access: MANAGE_NOTIFICATIONS, body: CreateOnCallScheduleBody, success: { status: 201, description: 'The schedule', body: t.type({ on_call_schedule: O.OnCallSchedule }) } },
  { method: 'get', path: '/v1/on-call-schedules/:scheduleId', ...about('On call', 'Read an on-call schedule'), access: READ, success: { status: 200, description: 'The schedule', body: t.type({ on_call_schedule: O.OnCallSchedule }) } },
  { method: 'patch', path: '/v1/on-call-schedules/:scheduleId', ...about('On call', 'Change an on-call schedule (overrides: the whole new list)'), access: MANAGE_NOTIFICATIONS, body: UpdateOnCallScheduleBody, success: { status: 200, description: 'The schedule', body: t.type({ on_call_schedule: O.OnCallSchedule }) } },
  { method: 'delete', path: '/v1/on-call-schedules/:scheduleId', ...about('On call', 'Delete an on-call schedule'), access: DESTROY, success: { status: 204, description: 'Deleted' } },
  { method: 'get', path: '/v1/escalation-policies', ...about('Escalation', "A project's escalation policies"), access: READ, query: ProjectScopeQuery, success: { status: 200, description: 'The policies', body: t.type({ escalation_policies: t.array(R.EscalationPolicy) }) } },
  { method: 'post', path: '/v1/escalation-policies', ...about('Escalation', 'Create an escalation policy'), access: MANAGE_NOTIFICATIONS, body: CreateEscalationPolicyBody, success: { status: 201, description: 'The policy', body: t.type({ escalation_policy: R.EscalationPolicy }) } },
  { method: 'get', path: '/v1/escalation-policies/:policyId', ...about('Escalation', 'Read an escalation policy'), access: READ, success: { status: 200, description: 'The policy', body: t.type({ escalation_policy: R.EscalationPolicy }) } },
  { method: 'patch', path: '/v1/escalation-policies/:policyId', ...about('Escalation', 'Change an escalation policy (running escalations keep the steps they started with)'), access: MANAGE_NOTIFICATIONS, body: UpdateEscalationPolicyBody, success: { status: 200, description: 'The policy', body: t.type({ escalation_policy: R.EscalationPolicy }) } },
  { method: 'delete', path: '/v1/escalation-policies/:policyId', ...about('Escalation', 'Delete an escalation policy; refused (409) while monitors use it, unless clear_monitors=true'), access: DESTROY, query: DeleteEscalationPolicyQuery, success: { status: 204, description: 'Deleted' } },

  // Status pages and badges
  { method: 'get', path: '/v1/projects/:projectId/status-pages', ...about('Status pages', "A project's status pages"), access: READ, success: { status: 200, description: 'The status pages', body: t.type({ status_pages: t.array(S.StatusPage) }) } },
  { method: 'post', path: '/v1/projects/:projectId/status-pages', ...about('Status pages', 'Create a status page (unpublished unless `published` is true); its slug must be free across all projects (409 otherwise)'), access: MANAGE_MONITOR, body: CreateStatusPageBody, success: { status: 201, description: 'The status page', body: t.type({ status_page: S.StatusPage }) } },
  { method: 'get', path: '/v1/status-pages/:statusPageId', ...about('Status pages', 'Read a status page'), access: READ, success: { status: 200, description: 'The status page', body: t.type({ status_page: S.StatusPage }) } },
  { method: 'patch', path: '/v1/status-pages/:statusPageId', ...about('Status pages', 'Change a status page: publish or unpublish it, choose its monitors, move it to another slug'), access: MANAGE_MONITOR, body: UpdateStatusPageBody, success: { status: 200, description: 'The status page', body: t.type({ status_page: S.StatusPage }) } },
  { method: 'delete', path: '/v1/status-pages/:statusPageId', ...about('Status pages', 'Delete a status page (its slug becomes free)'), access: MANAGE_MONITOR, success: { status: 204, description: 'Deleted' } },
  { method: 'get', path: '/v1/projects/:projectId/badge-key', ...about('Status pages', "The project's badge key and its badge URLs (404 until one is issued, for projects from before badges)"), access: READ, success: { status: 200, description: 'The badge key', body: t.type({ badge_key: S.BadgeKey }) } },
  { method: 'post', path: '/v1/projects/:projectId/badge-key', ...about('Status pages', 'Issue a badge key, or a new one in place of the old (whose badge URLs then answer 404)'), access: MANAGE_MONITOR, success: { status: 200, description: 'The new badge key', body: t.type({ badge_key: S.BadgeKey }) } },

  // Maintenance windows
  { method: 'get', path: '/v1/projects/:projectId/maintenance-windows', ...about('Maintenance windows', "A project's maintenance windows (cancelled ones are not listed), with whether each covers its monitors now"), access: READ, success: { status: 200, description: 'The maintenance windows', body: t.type({ maintenance_windows: t.array(M.MaintenanceWindow) }) } },
  {
    method: 'post', path: '/v1/projects/:projectId/maintenance-windows', ...about('Maintenance windows', 'Schedule a maintenance window: one-off, or recurring (an RRULE in a time zone)'), access: MANAGE_MONITOR, body: CreateMaintenanceWindowBody,
    description: 'One-off: `starts_at` (now when left out) and `ends_at`, or `duration_seconds` from the start ("start now for 30 minutes"). Recurring: `rrule` (daily or coarser, e.g. `RRULE:FREQ=WEEKLY;BYDAY=SU;BYHOUR=2;BYMINUTE=0`), `timezone` (IANA, UTC when left out) and `duration_seconds` per occurrence (60 s to 7 days). `monitor_ids` left out covers every monitor of the project. Inside a window nothing pages: what would open an incident is recorded as `IncidentSuppressed` naming the window, and opens (and pages) when the window ends if the monitor is still failing.',
    success: { status: 201, description: 'The maintenance window', body: t.type({ maintenance_window: M.MaintenanceWindow }) },
  },
  { method: 'get', path: '/v1/maintenance-windows/:windowId', ...about('Maintenance windows', 'Read a maintenance window'), access: READ, success: { status: 200, description: 'The maintenance window', body: t.type({ maintenance_window: M.MaintenanceWindow }) } },
  { method: 'patch', path: '/v1/maintenance-windows/:windowId', ...about('Maintenance windows', 'Change a maintenance window not yet over: its name, monitors or times'), access: MANAGE_MONITOR, body: UpdateMaintenanceWindowBody, success: { status: 200, description: 'The maintenance window', body: t.type({ maintenance_window: M.MaintenanceWindow }) } },
  { method: 'post', path: '/v1/maintenance-windows/:windowId/end', ...about('Maintenance windows', 'End a maintenance window now; what it held back that is still failing opens at once'), access: MANAGE_MONITOR, success: { status: 200, description: 'The maintenance window, over', body: t.type({ maintenance_window: M.MaintenanceWindow }) } },
  { method: 'delete', path: '/v1/maintenance-windows/:windowId', ...about('Maintenance windows', 'Cancel a maintenance window (no longer listed); what it held back that is still failing opens at once'), access: MANAGE_MONITOR, success: { status: 204, description: 'Cancelled' } },

  // Diagnostic tools
  { method: 'post', path: '/v1/tools/check-http', ...about('Tools', 'Run one HTTP check now, as the checker would'), access: RUN_TOOL, body: CheckHttpBody, success: { status: 200, description: 'What the probe saw', body: R.ToolReport } },
  { method: 'post', path: '/v1/tools/check-ssl', ...about('Tools', "Inspect a host's TLS certificate"), access: RUN_TOOL, body: CheckSslBody, success: { status: 200, description: 'The certificate', body: R.ToolReport } },
  { method: 'post', path: '/v1/tools/check-dns', ...about('Tools', 'Resolve a host name'), access: RUN_TOOL, body: CheckDnsBody, success: { status: 200, description: 'The records', body: R.ToolReport } },

  // The Ping API: no key; GET, POST and HEAD alike.
  ...pingOperations(),
];

function pingOperations(): Operation[] {
  const forms = [
    { path: '/v1/ping/:monitorId', summary: 'Ping a monitor by id (SUCCESS)' },
    { path: '/v1/ping/:monitorId/:suffix', summary: 'Ping a monitor by id: start, success, fail, failure, log or an exit code 0-255' },
    { path: '/v1/s-ping/:pingKey/:slug', summary: "Ping a monitor by its project's ping key and its slug (SUCCESS)" },
    { path: '/v1/s-ping/:pingKey/:slug/:suffix', summary: 'Ping a monitor by ping key and slug: start, success, fail, failure, log or an exit code 0-255' },
  ];
  const methods = ['get', 'post', 'head'] as const;
  return forms.flatMap((form) =>
    methods.map((method) => ({
      method,
      path: form.path,
      tag: 'Ping API',
      summary: form.summary,
      public: true,
      description:
        'No API key. Answered once the ping is durably recorded. A POST body is kept as the payload up to the configured limit (the excess is counted and discarded).' +
        (form.path.startsWith('/v1/s-ping')
          ? " With `create=1`, a slug no monitor has creates one with the project's `auto_provisioning` defaults when that setting is enabled: 201 with `created: true`, the ping recorded as its first; 429 over `max_per_hour`, 400 for an invalid slug, 404 when the setting is off."
          : ''),
      query: PingQuery,
      ...(method === 'post' ? { payload: true } : {}),
      success: { status: 200 as const, description: 'Recorded', body: R.PingAccepted },
    })),
  );
}

/** Operator endpoints outside /v1. */
export const OPERATOR_OPERATIONS: readonly Operation[] = [
  { method: 'get', path: '/openapi.json', tag: 'Operator', summary: 'This document', public: true, success: { status: 200, description: 'OpenAPI 3.1', body: t.UnknownRecord } },
  { method: 'get', path: '/docs', tag: 'Operator', summary: 'The interactive API explorer', public: true, success: { status: 200, description: 'An HTML page', contentType: 'text/html' } },
  { method: 'get', path: '/docs/explorer.js', tag: 'Operator', summary: "The explorer's start-up script", public: true, success: { status: 200, description: 'JavaScript', contentType: 'text/javascript' } },
  { method: 'get', path: '/docs/assets/:file', tag: 'Operator', summary: "The explorer's files (swagger-ui-dist, served locally)", public: true, success: { status: 200, description: 'CSS, JavaScript or an icon', contentType: '*/*' } },
  { method: 'get', path: '/healthz', tag: 'Operator', summary: 'Liveness: the process is up', public: true, success: { status: 200, description: 'Up', body: t.type({ status: t.literal('ok') }) } },
  { method: 'get', path: '/readyz', tag: 'Operator', summary: 'Readiness: stores reachable and read models caught up (503 otherwise)', public: true, success: { status: 200, description: 'Ready', body: t.UnknownRecord } },
  { method: 'get', path: '/badge/:file', tag: 'Badges', summary: "The project's badge, worst of its monitors (`<badge_key>.svg`)", public: true, description: 'No API key: the badge key in the path is the capability. 404 for an unknown key.', success: { status: 200, description: 'An SVG badge', contentType: 'image/svg+xml' } },
  { method: 'get', path: '/badge/:badgeKey/:file', tag: 'Badges', summary: "A monitor's badge by slug: `<slug>.svg`, or `<slug>.json` in the shields.io endpoint schema", public: true, description: 'No API key. `.json` answers `{ schemaVersion: 1, label, message, color }` with `Access-Control-Allow-Origin: *`. 404 for an unknown key or slug.', success: { status: 200, description: 'An SVG badge or shields.io endpoint JSON', contentType: '*/*' } },
  { method: 'get', path: '/status/:slug', tag: 'Status pages', summary: 'A published status page (HTML)', public: true, description: 'No API key. 404 for an unknown or unpublished page.', success: { status: 200, description: 'An HTML page', contentType: 'text/html' } },
  { method: 'get', path: '/status/:slug/day/:day', tag: 'Status pages', summary: "A published status page's day (`YYYY-MM-DD`, UTC, within the last 90 days): its incidents", public: true, success: { status: 200, description: 'An HTML page', contentType: 'text/html' } },
  { method: 'get', path: '/metrics', tag: 'Operator', summary: 'Prometheus metrics', public: true, success: { status: 200, description: 'Prometheus text format', contentType: 'text/plain' } },
];

