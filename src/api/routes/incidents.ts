import type { Router } from '@koa/router';
import { acknowledgeIncident, resolveIncident } from '../../app/monitors.js';
import { INCIDENT_KINDS, INCIDENT_STATUSES } from '../../domain/monitors/incidents.js';
import { getDeletedMonitor, getIncident, getMonitor, pagedFind } from '../../queries/monitors.js';
import type { Filter } from '../../readstore/read-model-store.js';
import type { IncidentDocument } from '../../../projections/incidents.js';
import { inlineAsOfReader } from '../../audit/as-of-reader.js';
import { incidentTimeline } from '../../queries/timeline.js';
import { actorOf } from '../../web/actor.js';
import { type ApiDependencies, settled } from '../../web/dependencies.js';
import { HttpError, badRequest } from '../../web/errors.js';
import { gate } from '../../app/gate.js';
import { listFilter } from '../list-filters.js';
import { gatedDocument, targetProject, userActor } from '../../web/monitor-access.js';
import type { Requirement } from '../../domain/access/authorize.js';
import { envelope, pageOf } from '../pagination.js';
import { incidentBody } from '../../web/representations/incidents.js';
import type { VigilState } from '../../web/state.js';
import { IncidentListQuery, queryFields } from '../../web/codecs/queries.js';
import { decode } from '../../web/validation.js';
import { ACT } from '../../app/monitor-rules.js';


export function incidentRoutes(router: Router<VigilState>, deps: ApiDependencies): void {
  const { readModels, commands } = deps;
  const asOf = deps.asOf ?? inlineAsOfReader(readModels, commands.events);

  const gatedIncident = (state: VigilState, rawId: string | undefined, requirement: Requirement) =>
    gatedDocument<IncidentDocument>(readModels, state, 'incidents', rawId, 'incident', requirement);

  router.get('/incidents', async (ctx) => {
    const query = decode(
      IncidentListQuery,
      queryFields(ctx.query, IncidentListQuery),
      'query',
    );
    const projectId = targetProject(ctx.state, query.project_id);
    await gate(readModels, ctx.state.caller, { scope: 'read' }, projectId);
    const page = pageOf(ctx.query, 200);
    const filter: Filter = {
      project_id: projectId,
      ...listFilter(ctx.query['status'], 'status', INCIDENT_STATUSES),
      ...listFilter(ctx.query['event'], 'event', INCIDENT_KINDS),
    };
    if (query.monitor_id !== undefined) {
      const monitor = await getMonitor(readModels, query.monitor_id);
      // The past also has the monitors deleted since, and their incidents, archived with them.
      const named = monitor ? monitor.project_id === projectId : query.as_of !== undefined && (await getDeletedMonitor(readModels, projectId, query.monitor_id)) !== null;
      if (!named) throw badRequest('monitor_id must name a monitor of this project');
      Object.assign(filter, { monitor_id: query.monitor_id });
    }
    if (query.as_of === undefined) {
      const { docs, total } = await pagedFind<IncidentDocument>(readModels, 'incidents', filter, [['started_at', -1]], page);
      ctx.body = envelope(docs.map(incidentBody), page, total);
      return;
    }
    // As they stood then: from the incidents' history, not today's read model.
    const { docs, total } = await asOf.incidents(filter, query.as_of, page);
    ctx.body = { ...envelope(docs.map(incidentBody), page, total), as_of: query.as_of };
  });

  router.get('/incidents/:incidentId/timeline', async (ctx) => {
    const incident = await gatedIncident(ctx.state, ctx.params['incidentId'], { scope: 'read' });
    const timeline = await incidentTimeline(readModels, commands.events, incident.id, incident.project_id);
    ctx.body = { incident: incidentBody(incident), configuration: timeline.configuration, entries: timeline.entries };
  });

  router.get('/incidents/:incidentId', async (ctx) => {
    ctx.body = { incident: incidentBody(await gatedIncident(ctx.state, ctx.params['incidentId'], { scope: 'read' })) };
  });

  for (const [action, run] of [['acknowledge', acknowledgeIncident], ['resolve', resolveIncident]] as const) {
    router.post(`/incidents/:incidentId/${action}`, async (ctx) => {
      const incident = await gatedIncident(ctx.state, ctx.params['incidentId'], ACT);
      // Its monitor's streams, where its lifecycle was decided, are gone: it is kept as archived.
      if (!(await getMonitor(readModels, incident.monitor_id))) throw badRequest(`incident ${incident.id} is ${incident.status} and archived with its deleted monitor; it can no longer change`);
      const outcome = await run(commands, incident.monitor_id, incident.id, await userActor(readModels, ctx.state), actorOf(ctx.state));
      await settled(deps, outcome.position, ctx.state);
      const updated = await getIncident(readModels, incident.id);
      if (!updated) throw new HttpError(404, 'incident not found');
      ctx.body = { incident: incidentBody(updated) };
    });
  }
}
