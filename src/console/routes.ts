import { Router } from '@koa/router';
import * as t from 'io-ts';
import type { Context, Next } from 'koa';
import compress from 'koa-compress';
import type { IncidentDocument } from '../../projections/incidents.js';
import type { MonitorDocument } from '../../projections/monitors.js';
import { actorOf } from '../web/actor.js';
import { type ApiDependencies, settled } from '../web/dependencies.js';
import { HttpError, loggedErrorResponse } from '../web/errors.js';
import { gate } from '../app/gate.js';
import { AuthFailureThrottle } from '../web/rate-limit.js';
import { gatedDocument, gatedMonitor, userActor } from '../web/monitor-access.js';
import { ACT as ACT_ON_INCIDENT } from '../app/monitor-rules.js';
import { CREATE as CREATE_MONITOR, MANAGE as MANAGE_MONITOR } from '../app/monitor-rules.js';
import type { VigilState } from '../web/state.js';
import { BoundedString, decode, pathId } from '../web/validation.js';
import { acknowledgeIncident, pauseMonitor, resolveIncident, resumeMonitor } from '../app/monitors.js';
import { type Caller, type Requirement, authorize, canReach } from '../domain/access/authorize.js';
import { isUptimeType, upcomingSlots } from '../domain/monitors/schedule.js';
import { roleOf } from '../queries/identity.js';
import { dependentsOf, getMonitor, listMonitors, monitorsOf, pagedFind } from '../queries/monitors.js';
import { pingPage, recentPings, recentUnheard } from '../queries/pings.js';
import { getProject, projectDetails, projectIdsOfUser } from '../queries/projects.js';
import { incidentTimeline } from '../queries/timeline.js';
import { recentChecks } from '../queries/check-log.js';
import { channelNames } from './timeline.js';
import { checkHours, periodStart, summarize } from '../queries/uptime.js';
import { WARNING_MAX_PINGS, WARNING_WINDOW_DAYS, monitorWarnings } from '../queries/warnings.js';
import { ASSETS, ASSET_PATH, assetNamed } from './assets.js';
import { LiveStreams } from './live.js';
import { consoleRateLimit } from './rate-limit.js';
import { displayStatuses, monitorActivity, monitorOverviews } from './overview.js';
import { RecentRuns } from '../queries/recent-runs.js';
import { shownNextExpected } from '../web/representations/monitors.js';
import { dashboardPage } from './pages/dashboard.js';
import { RefusalWithWayOn, errorPage } from './pages/error.js';
import { incidentPage } from './pages/incident.js';
import type { EscalationDocument } from '../../projections/escalations.js';
import { type RelatedMonitor, type UptimeDay, monitorPage } from './pages/monitor.js';
import { type ProjectSummary, projectsPage } from './pages/projects.js';
import { incidentNoteRoutes } from './routes/incident-notes.js';
import { sharingRoutes } from './routes/sharing.js';
import { maintenanceRoutes, monitorMaintenance } from './routes/maintenance.js';
import { monitorFormRoutes } from './routes/monitor-forms.js';
import { routingInWords } from './monitor-routing.js';
import { auditRoutes } from './routes/audit.js';
import { settingsRoutes } from './routes/settings.js';
import { keyRoutes } from './routes/keys.js';
import { memberRoutes } from './routes/members.js';
import { invitationRoutes } from './routes/invitations.js';
import { channelRoutes } from './routes/channels.js';
import { groupRoutes } from './routes/groups.js';
import { onCallRoutes } from './routes/on-call.js';
import { escalationPolicyRoutes } from './routes/escalation-policies.js';
import { projectRoutes } from './routes/projects.js';
import { timeTravelRoutes } from './routes/time-travel.js';
import { accountRoutes } from './routes/account.js';
import { passwordResetRoutes } from './routes/password-reset.js';
import { setupRoutes } from './routes/setup.js';
import { signInRoutes } from './routes/sign-in.js';
import { ssoRoutes } from './routes/sso.js';
import { secondFactorGate } from './second-factor-gate.js';
import { secondFactorRoutes } from './routes/second-factors.js';
import { secondStepRoutes } from './routes/second-step.js';
import { passkeySignInRoutes } from './routes/passkey-sign-in.js';
import { accountKeyRoutes } from './routes/account-keys.js';
import { type ConsoleState, render, signedInMiddleware, stillSignedIn } from './signed-in.js';
import type { ConsoleKit, ConsoleRoutes, SignInThrottles } from './kit.js';
import { doneNotice } from './done-notice.js';
import { MemorySessionStore, type SessionStore } from '../web/session-store.js';

export type { ConsoleState };

export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

const READ = { scope: 'read' } as const;
const CHART_RUNS = 60;
const PINGS_SHOWN = 20;
const INCIDENTS_SHOWN = 20;

const DashboardQuery = t.partial({
  status: t.keyof({ '': null, UP: null, DEGRADED: null, LATE: null, DOWN: null, MAINTENANCE: null, PAUSED: null, WAITING: null }),
  q: BoundedString(0, 200),
});

/** The groups of routes registered after the core pages; each feature adds itself here. */
const FEATURE_ROUTES: ConsoleRoutes[] = [
  signInRoutes, ssoRoutes, secondStepRoutes, passkeySignInRoutes, setupRoutes, passwordResetRoutes, accountRoutes, secondFactorRoutes, incidentNoteRoutes, sharingRoutes, settingsRoutes, channelRoutes, groupRoutes, onCallRoutes, escalationPolicyRoutes, projectRoutes,
  keyRoutes, accountKeyRoutes, memberRoutes, invitationRoutes, timeTravelRoutes, auditRoutes, maintenanceRoutes, monitorFormRoutes,
];

/** The REST API's throttle on failed authentications, shared by the sign-in form, and its metric. */
export interface SignInFailures {
  throttle?: AuthFailureThrottle | null;
  onFailure?: (outcome: 'refused' | 'throttled') => void;
  onKeyUsed?: (userId: string, apiKeyId: string) => void;
}

/** Failed sign-ins an account may have per window before its sign-ins are refused until the window ends. */
export const ACCOUNT_SIGN_IN_FAILURES = { authFailures: 10, authFailureWindowSeconds: 15 * 60 } as const;

/** What `monitor` depends on (in the order set; one deleted since is not shown) and what depends on it. */
async function relatedMonitors(readModels: ApiDependencies['readModels'], monitor: MonitorDocument, now: Date): Promise<{ dependencies: RelatedMonitor[]; dependents: RelatedMonitor[] }> {
  const [dependencies, dependents] = await Promise.all([monitorsOf(readModels, monitor.depends_on ?? []), dependentsOf(readModels, monitor)]);
  const statuses = await displayStatuses(readModels, [...dependencies, ...dependents], now);
  const related = (doc: MonitorDocument): RelatedMonitor => ({ id: doc.id, name: doc.name, status: statuses.get(doc.id) ?? 'UP' });
  return { dependencies: dependencies.map(related), dependents: dependents.map(related) };
}

const consoleRouters = new WeakSet<object>();

/** Whether a router is the console's: its pages are for browsers, outside the REST API and its OpenAPI document. */
export function isConsoleRouter(router: object): boolean {
  return consoleRouters.has(router);
}

/**
 * The web console: server-rendered pages for people, signed in with an API key. It reads through
 * the same queries and gates as the REST API and changes things through the same app-layer
 * commands, so a key can do exactly as much here as there.
 */
export function consoleRouter(deps: ApiDependencies, catchUp: () => Promise<void>, failures: SignInFailures = {}): Router<VigilState> {
  const { throttle = null, onFailure = () => {}, onKeyUsed = () => {} } = failures;
  const { readModels, commands } = deps;
  const sessions: SessionStore = deps.sessions ?? new MemorySessionStore();
  // One for the process's dashboards, so that each refresh reads only what the log gained since.
  const recentRuns = new RecentRuns(commands.events);
  const live = new LiveStreams(deps, recentRuns);
  const clock = commands.clock;
  const router = new Router<VigilState>();
  consoleRouters.add(router);

  /** Can the caller do this on the project? What the pages ask before they show a button; the POST is gated again. */
  async function may(caller: Caller, requirement: Requirement, projectId: string): Promise<boolean> {
    const role = canReach(caller, projectId) ? await roleOf(readModels, projectId, caller.userId) : null;
    return authorize(caller, requirement, { projectId, role }).allowed;
  }

  /** The projects the caller may open, with its role in each. */
  async function reachableProjectRoles(caller: Caller): Promise<Map<string, string>> {
    const candidates = caller.kind === 'PROJECT' && caller.projectId ? [caller.projectId] : await projectIdsOfUser(readModels, caller.userId);
    const roles = new Map<string, string>();
    for (const projectId of candidates) {
      const role = await roleOf(readModels, projectId, caller.userId);
      if (role) roles.set(projectId, role);
    }
    return roles;
  }

  async function reachableProjects(caller: Caller): Promise<ProjectSummary[]> {
    const roles = await reachableProjectRoles(caller);
    const details = await projectDetails(readModels, [...roles.keys()]);
    return Promise.all(
      details.map(async (d) => {
        const monitors = await listMonitors(readModels, d.project.id);
        return { details: d, monitors: monitors.length, down: monitors.filter((m) => m.status === 'DOWN').length, role: roles.get(d.project.id) ?? '' };
      }),
    );
  }

  /** The last seven days (UTC) of an uptime monitor's checks, a share of UP each. */
  async function uptimeByDay(monitorId: string, now: Date): Promise<UptimeDay[]> {
    const hours = await checkHours(readModels, { monitor_id: monitorId }, periodStart(now, 24 * 7));
    const days: UptimeDay[] = [];
    for (let back = 6; back >= 0; back -= 1) {
      const day = new Date(now.getTime() - back * 86_400_000).toISOString().slice(0, 10);
      const stats = summarize(hours.filter((h) => h.hour.startsWith(day)));
      days.push({ day, percentage: stats.uptime_percentage, checks: stats.total_checks });
    }
    return days;
  }

  const signedIn = signedInMiddleware({ readModels, sessions, clock, catchUp });

  // Pages are compressed (a dashboard of 1,000 monitors is ~1.5 MB of HTML, ~10% of it gzipped);
  // the live stream writes to the socket itself and is left alone.
  router.use(compress({ threshold: 1024 }));
  router.use(async (ctx: Context, next: Next) => {
    ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'same-origin');
    ctx.set('X-Frame-Options', 'DENY');
    try {
      await next();
    } catch (caught) {
      const { status, body, headers } = loggedErrorResponse(caught, deps.logger, ctx.state['requestId']);
      ctx.set(headers);
      ctx.set('Cache-Control', 'no-store');
      const viewer = (ctx.state as Partial<ConsoleState>).viewer ?? null;
      render(ctx, errorPage(status, body.error, viewer, caught instanceof RefusalWithWayOn ? caught.wayOn : null), status);
    }
  });
  router.use(consoleRateLimit(deps.config.rateLimit, sessions, clock));

  router.get(ASSET_PATH, (ctx) => {
    const asset = assetNamed(ctx.params['file'] ?? '');
    if (!asset) throw new HttpError(404, 'no such asset');
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.type = asset.type;
    ctx.body = asset.body;
  });

  // Browsers ask for /favicon.ico by themselves, whatever the page links: the same icon, for a day.
  router.get('/favicon.ico', (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.type = ASSETS.favicon.type;
    ctx.body = ASSETS.favicon.body;
  });

  router.get('/', signedIn, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    await gate(readModels, ctx.state.caller, READ, null);
    const projects = await reachableProjects(ctx.state.caller);
    if (projects.length === 1) {
      ctx.status = 303;
      ctx.redirect(`/projects/${projects[0]!.details.project.id}`);
      return;
    }
    render(ctx, projectsPage(ctx.state.viewer, projects, ctx.state.session.method === 'api_key'));
  });

  router.get('/projects/:projectId', signedIn, async (ctx, next) => {
    // The page as it stood at an instant: time travel (routes/time-travel.ts) answers.
    if (ctx.query['as_of'] !== undefined) return void (await next());
    ctx.set('Cache-Control', 'no-store');
    const projectId = pathId(ctx.params['projectId'], 'project');
    await gate(readModels, ctx.state.caller, READ, projectId);
    const project = await getProject(readModels, projectId);
    if (!project) throw new HttpError(404, 'project not found');
    const query = decode(DashboardQuery, ctx.query, 'query');
    const overviews = await monitorOverviews(readModels, recentRuns, await listMonitors(readModels, projectId), clock());
    const projectCount = (await reachableProjectRoles(ctx.state.caller)).size;
    render(ctx, dashboardPage({
      viewer: ctx.state.viewer, project, overviews, now: clock(), projectCount, notice: doneNotice(ctx), canCreate: await may(ctx.state.caller, CREATE_MONITOR, projectId),
      filter: { status: query.status === undefined || query.status === '' ? null : query.status, q: query.q ?? '' },
    }));
  });

  router.get('/projects/:projectId/events', signedIn, async (ctx) => {
    const projectId = pathId(ctx.params['projectId'], 'project');
    await gate(readModels, ctx.state.caller, READ, projectId);
    live.stream(ctx, projectId, {
      sessionIdHash: ctx.state.sessionIdHash,
      userId: ctx.state.caller.userId,
      // Checked at every change: a member removed since stops getting the rows at once, and the
      // page, told, reloads into the "project not found" it now is for them.
      stillSignedIn: async () => (await stillSignedIn(readModels, sessions, ctx.state.sessionIdHash, clock)) && (await roleOf(readModels, projectId, ctx.state.caller.userId)) !== null,
    });
  });

  router.get('/monitors/:monitorId', signedIn, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const monitor = await gatedMonitor(readModels, ctx.state, ctx.params['monitorId'], READ);
    const project = await getProject(readModels, monitor.project_id);
    if (!project) throw new HttpError(404, 'monitor not found');
    const now = clock();
    const isUptime = isUptimeType(monitor.type);
    const [activity, pings, incidents, warningPings, canManage, unheard, checks] = await Promise.all([
      monitorActivity(commands.events, monitor, CHART_RUNS),
      isUptime ? Promise.resolve({ pings: [] }) : pingPage(commands.events, monitor.id, {}, { page: 1, limit: PINGS_SHOWN }),
      pagedFind<IncidentDocument>(readModels, 'incidents', { monitor_id: monitor.id }, [['started_at', -1]], { page: 1, limit: INCIDENTS_SHOWN }),
      recentPings(commands.events, monitor.id, new Date(now.getTime() - WARNING_WINDOW_DAYS * 86_400_000).toISOString(), WARNING_MAX_PINGS),
      may(ctx.state.caller, MANAGE_MONITOR, monitor.project_id),
      isUptime ? Promise.resolve([]) : recentUnheard(commands.events, monitor.id, PINGS_SHOWN),
      isUptime ? recentChecks(readModels, monitor.id, PINGS_SHOWN) : Promise.resolve([]),
    ]);
    const [related, routing, statuses] = await Promise.all([relatedMonitors(readModels, monitor, now), routingInWords(readModels, monitor), displayStatuses(readModels, [monitor], now)]);
    render(ctx, monitorPage({
      viewer: ctx.state.viewer, notice: doneNotice(ctx), monitor, project, now, origin: `${ctx.protocol}://${ctx.host}`, canManage, ...related, routing,
      status: statuses.get(monitor.id) ?? 'UP', lastSeenAt: activity.lastSeenAt, runs: activity.runs,
      upcoming: shownNextExpected(monitor) === null ? [] : upcomingSlots(monitor.type, monitor.schedule, monitor.timezone, monitor.next_expected_at, 5),
      pings: pings.pings, checks, unheard, incidents: incidents.docs, warnings: monitorWarnings(monitor, warningPings, now.toISOString()),
      uptimeDays: isUptime ? await uptimeByDay(monitor.id, now) : null,
      maintenance: await monitorMaintenance(readModels, monitor, now.toISOString()),
    }));
  });

  for (const [action, run, done] of [['pause', pauseMonitor, 'paused'], ['resume', resumeMonitor, 'resumed']] as const) {
    router.post(`/monitors/:monitorId/${action}`, signedIn, async (ctx) => {
      const monitor = await gatedMonitor(readModels, ctx.state, ctx.params['monitorId'], MANAGE_MONITOR);
      const outcome = await run(commands, monitor.id, actorOf(ctx.state));
      await settled(deps, outcome.position);
      ctx.status = 303;
      ctx.redirect(`/monitors/${monitor.id}?done=${done}`);
    });
  }

  const gatedIncident = (state: VigilState, rawId: string | undefined, requirement: Requirement) =>
    gatedDocument<IncidentDocument>(readModels, state, 'incidents', rawId, 'incident', requirement);

  router.get('/incidents/:incidentId', signedIn, async (ctx, next) => {
    if (ctx.query['as_of'] !== undefined) return void (await next());
    ctx.set('Cache-Control', 'no-store');
    const incident = await gatedIncident(ctx.state, ctx.params['incidentId'], READ);
    const [timeline, monitor, project, canAct, channels, escalation] = await Promise.all([
      incidentTimeline(readModels, commands.events, incident.id, incident.project_id),
      getMonitor(readModels, incident.monitor_id),
      getProject(readModels, incident.project_id),
      may(ctx.state.caller, ACT_ON_INCIDENT, incident.project_id),
      channelNames(readModels, incident.project_id),
      readModels.get<EscalationDocument>('escalations', incident.id),
    ]);
    render(ctx, incidentPage({
      viewer: ctx.state.viewer, notice: doneNotice(ctx), incident, projectName: project?.name ?? 'Project', entries: timeline.entries, channels, canAct, monitorExists: monitor !== null, now: clock(),
      escalation: escalation?.doc ?? null,
    }));
  });

  for (const [action, run, done] of [['acknowledge', acknowledgeIncident, 'acknowledged'], ['resolve', resolveIncident, 'resolved']] as const) {
    router.post(`/incidents/:incidentId/${action}`, signedIn, async (ctx) => {
      const incident = await gatedIncident(ctx.state, ctx.params['incidentId'], ACT_ON_INCIDENT);
      if (!(await getMonitor(readModels, incident.monitor_id))) throw new HttpError(400, `incident ${incident.id} is archived with its deleted monitor; it can no longer change`);
      const outcome = await run(commands, incident.monitor_id, incident.id, await userActor(readModels, ctx.state), actorOf(ctx.state));
      await settled(deps, outcome.position);
      ctx.status = 303;
      ctx.redirect(`/incidents/${incident.id}?done=${done}`);
    });
  }

  const signInThrottles: SignInThrottles = { address: throttle, account: new AuthFailureThrottle(ACCOUNT_SIGN_IN_FAILURES, clock), onFailure };
  const kit: ConsoleKit = { router, deps, clock, signedIn, may, catchUp, sessions, secondFactors: secondFactorGate(deps), signInThrottles, onKeyUsed };
  for (const register of FEATURE_ROUTES) register(kit);

  return router;
}
