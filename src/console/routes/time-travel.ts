import type { Context } from 'koa';
import type { IncidentDocument } from '../../../projections/incidents.js';
import { AsOfQuery } from '../../web/codecs/queries.js';
import { HttpError, badRequest } from '../../web/errors.js';
import { gate } from '../../app/gate.js';
import { gatedDocument } from '../../web/monitor-access.js';
import { decode, pathId } from '../../web/validation.js';
import { inlineAsOfReader } from '../../audit/as-of-reader.js';
import { listMonitors, monitorsDeletedSince } from '../../queries/monitors.js';
import { getProject, projectIdsOfUser } from '../../queries/projects.js';
import { incidentTimeline } from '../../queries/timeline.js';
import { channelNames } from '../timeline.js';
import { RefusalWithWayOn } from '../pages/error.js';
import { type PastMonitorRow, pastDashboardPage, pastIncidentPage } from '../pages/past.js';
import type { ConsoleKit, ConsoleRoutes } from '../kit.js';
import { render } from '../signed-in.js';

const READ = { scope: 'read' } as const;
/** Open incidents counted per monitor in a past view: past this many, the counts are of the newest. */
const PAST_INCIDENTS_READ = 500;
/** What a datetime-local field sends: no zone, read as UTC (the form says so). */
const ZONELESS = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,3})?)?$/;

/**
 * The instant a past view is of: an ISO 8601 instant, or a zoneless one from the form taken as
 * UTC; never one to come (there is nothing recorded about it).
 */
export function pastInstant(raw: unknown, now: Date): string {
  if (typeof raw !== 'string') throw badRequest('The link names more than one moment: as_of must be given once, as an ISO 8601 instant such as 2026-11-21T14:00:00Z');
  // A person followed (or typed) this link: the page says what is wrong in words before naming
  // the parameter, which the REST API's answer names alone.
  const unreadable = () => badRequest('The date in this link is not one Vigil can read: as_of must be an ISO 8601 date-time such as 2026-11-21T14:00:00Z');
  let asOf: string | undefined;
  try {
    asOf = decode(AsOfQuery, { as_of: ZONELESS.test(raw) ? `${raw}Z` : raw }, 'query').as_of;
  } catch {
    throw unreadable();
  }
  if (asOf === undefined) throw unreadable();
  if (asOf > now.toISOString()) throw badRequest(`as_of ${asOf} is in the future (it is now ${now.toISOString()}): only the past can be viewed`);
  return asOf;
}

/**
 * Time travel: `/projects/<id>?as_of=` and `/incidents/<id>?as_of=` show those pages as they
 * stood at an instant, from the same `as_of` reads as the REST API (on its worker thread with the
 * embedded store). The core pages hand a request with `as_of` over to these. Nothing here acts,
 * and nothing updates live.
 */
export const timeTravelRoutes: ConsoleRoutes = (kit: ConsoleKit) => {
  const { router, deps, signedIn, clock } = kit;
  const { readModels, commands } = deps;
  const asOfReader = deps.asOf ?? inlineAsOfReader(readModels, commands.events);

  /**
   * The instant asked for, or a redirect to the page's canonical link for it (a stable deep link).
   * A link with a moment that cannot be shown offers the page as it is now.
   */
  function instantOrRedirect(ctx: Context): string | null {
    let asOf: string;
    try {
      asOf = pastInstant(ctx.query['as_of'], clock());
    } catch (error) {
      throw error instanceof HttpError ? new RefusalWithWayOn(error, { href: ctx.path, label: 'View this page as it is now' }) : error;
    }
    ctx.set('Cache-Control', 'no-store');
    if (ctx.query['as_of'] === asOf && Object.keys(ctx.query).length === 1) return asOf;
    ctx.status = 303;
    ctx.redirect(`${ctx.path}?as_of=${encodeURIComponent(asOf)}`);
    return null;
  }

  router.get('/projects/:projectId', signedIn, async (ctx) => {
    const projectId = pathId(ctx.params['projectId'], 'project');
    await gate(readModels, ctx.state.caller, READ, projectId);
    const project = await getProject(readModels, projectId);
    if (!project) throw new HttpError(404, 'project not found');
    const asOf = instantOrRedirect(ctx);
    if (asOf === null) return;
    if (project.created_at > asOf) throw new HttpError(404, `project ${project.name} did not exist yet at ${asOf}`);
    const open = await asOfReader.incidents({ project_id: projectId, status: { $in: ['OPEN', 'ACKNOWLEDGED'] } }, asOf, { page: 1, limit: PAST_INCIDENTS_READ });
    const counts = new Map<string, number>();
    for (const incident of open.docs) counts.set(incident.monitor_id, (counts.get(incident.monitor_id) ?? 0) + 1);
    const rows: PastMonitorRow[] = [];
    // One after the other: the as_of thread takes a bounded queue, and a project may have many monitors.
    for (const today of await listMonitors(readModels, projectId)) {
      const then = await asOfReader.monitor(today.id, asOf);
      if (then) rows.push({ monitor: then, openIncidents: counts.get(then.id) ?? 0 });
    }
    rows.sort((a, b) => a.monitor.name.localeCompare(b.monitor.name, 'en', { sensitivity: 'base' }) || a.monitor.id.localeCompare(b.monitor.id));
    const deleted = (await monitorsDeletedSince(readModels, projectId, asOf)).map((d) => ({ deleted: d, openIncidents: counts.get(d.id) ?? 0 }));
    const projectCount = ctx.state.caller.kind === 'PROJECT' ? 1 : (await projectIdsOfUser(readModels, ctx.state.caller.userId)).length;
    render(ctx, pastDashboardPage({ viewer: ctx.state.viewer, project, asOf, rows, deleted, projectCount }));
  });

  router.get('/incidents/:incidentId', signedIn, async (ctx) => {
    const today = await gatedDocument<IncidentDocument>(readModels, ctx.state, 'incidents', ctx.params['incidentId'], 'incident', READ);
    const asOf = instantOrRedirect(ctx);
    if (asOf === null) return;
    const { docs } = await asOfReader.incidents({ project_id: today.project_id, id: today.id }, asOf, { page: 1, limit: 1 });
    const then = docs[0];
    if (!then) throw new HttpError(404, `this incident had not opened yet at ${asOf}`);
    const [timeline, project, channels] = await Promise.all([
      incidentTimeline(readModels, commands.events, today.id, today.project_id), getProject(readModels, today.project_id), channelNames(readModels, today.project_id),
    ]);
    render(ctx, pastIncidentPage({
      viewer: ctx.state.viewer, incident: then, projectName: project?.name ?? 'Project', asOf, entries: timeline.entries.filter((e) => e.at <= asOf), channels,
    }));
  });
};
