import type { Router } from '@koa/router';
import { ALL_EVENT_TYPES } from '../../domain/events.js';
import { pagedFind } from '../../queries/monitors.js';
import type { Filter } from '../../readstore/read-model-store.js';
import type { AuditEventDocument } from '../../../projections/audit-events.js';
import type { ApiDependencies } from '../dependencies.js';
import { gate } from '../gate.js';
import { listFilter } from '../list-filters.js';
import { gatedMonitor } from '../monitor-access.js';
import { envelope, pageOf } from '../pagination.js';
import type { VigilState } from '../state.js';
import { HistoryRangeQuery, queryFields } from '../codecs/queries.js';
import { decode, pathId } from '../validation.js';


export function eventBody(doc: AuditEventDocument) {
  return { id: doc.event_id, type: doc.type, time: doc.time, actor: doc.actor, stream: doc.stream, revision: doc.revision, data: doc.data };
}

/** The recorded history, oldest first: every event with its type, time, actor and data (secrets redacted). */
export function historyRoutes(router: Router<VigilState>, deps: ApiDependencies): void {
  const { readModels } = deps;

  async function answer(query: Record<string, unknown>, scope: Filter) {
    const page = pageOf(query, 200);
    const range = decode(HistoryRangeQuery, queryFields(query, HistoryRangeQuery), 'query');
    const time = { ...(range.from ? { $gte: range.from } : {}), ...(range.to ? { $lte: range.to } : {}) };
    const filter: Filter = { ...scope, ...listFilter(query['type'], 'type', ALL_EVENT_TYPES), ...(Object.keys(time).length > 0 ? { time } : {}) };
    const { docs, total } = await pagedFind<AuditEventDocument>(readModels, 'audit_events', filter, [['position', 1]], page);
    return envelope(docs.map(eventBody), page, total);
  }

  router.get('/monitors/:monitorId/events', async (ctx) => {
    const monitor = await gatedMonitor(readModels, ctx.state, ctx.params['monitorId'], { scope: 'read' });
    ctx.body = await answer(ctx.query, { monitor_id: monitor.id });
  });

  router.get('/projects/:projectId/events', async (ctx) => {
    const projectId = pathId(ctx.params['projectId'], 'project');
    await gate(readModels, ctx.state.caller, { scope: 'read' }, projectId);
    ctx.body = await answer(ctx.query, { project_id: projectId });
  });
}
