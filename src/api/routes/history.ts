import type { Router } from '@koa/router';
import { ALL_EVENT_TYPES } from '../../domain/events.js';
import { pagedFind } from '../../queries/monitors.js';
import type { Filter, ReadModelStore } from '../../readstore/read-model-store.js';
import type { AuditEventDocument } from '../../../projections/audit-events.js';
import type { EventStore } from '../../eventstore/event-store.js';
import { type RecordedPing, historyEntryOfPing, recordedPings } from '../../queries/pings.js';
import type { ApiDependencies } from '../../web/dependencies.js';
import { gate } from '../../app/gate.js';
import { listFilter } from '../list-filters.js';
import { gatedMonitor } from '../../web/monitor-access.js';
import { envelope, pageOf } from '../pagination.js';
import type { VigilState } from '../../web/state.js';
import { HistoryRangeQuery, queryFields } from '../../web/codecs/queries.js';
import { decode, pathId } from '../../web/validation.js';
import { eventBody } from '../../web/representations/history.js';


type EventBody = ReturnType<typeof eventBody>;

/** A ping in the history, as its entry showed it when the history kept one (pings carry no secret). */
const pingBody = (ping: RecordedPing): EventBody => eventBody(historyEntryOfPing(ping));

/**
 * A page of a monitor's history, oldest first: its entries in the history read model merged by log
 * position with its pings, which the history keeps no entries of (they are read from the log,
 * at most retention_count of them). The entries that can fall on the page are the page's own
 * stretch of the merged list widened by the number of pings P: so at most limit + P of them are
 * read, from entry `offset - P` on, however far back the page is.
 */
async function monitorHistoryPage(
  readModels: ReadModelStore,
  filter: Filter,
  pingsOldestFirst: RecordedPing[],
  page: { page: number; limit: number },
): Promise<{ data: EventBody[]; total: number }> {
  const offset = (page.page - 1) * page.limit;
  const pingCount = pingsOldestFirst.length;
  const skip = Math.max(0, offset - pingCount);
  const [found, entryCount] = await Promise.all([
    readModels.find<AuditEventDocument>('audit_events', filter, { sort: [['position', 1]], skip, limit: page.limit + pingCount }),
    readModels.count('audit_events', filter),
  ]);
  const total = entryCount + pingCount;
  const entries = found.map((s) => s.doc);
  if (entries.length === 0) {
    // No entry from `skip` on: with skip 0 the history is the pings alone, otherwise the page lies past its end.
    return { data: skip === 0 ? pingsOldestFirst.slice(offset, offset + page.limit).map(pingBody) : [], total };
  }
  // The merged list from the first entry read (or from its start, when that entry is the first of all).
  const first = entries[0]!.position;
  const pingsBefore = pingsOldestFirst.filter((p) => p.recorded.position < first);
  const merged: EventBody[] = skip === 0 ? pingsBefore.map(pingBody) : [];
  const mergedFrom = skip === 0 ? 0 : skip + pingsBefore.length;
  // Past the last entry read, pings may interleave with entries not read; unless none are left.
  const lastRead = entries.length === page.limit + pingCount ? entries.at(-1)!.position : Number.POSITIVE_INFINITY;
  let next = pingsBefore.length;
  for (const entry of entries) {
    while (next < pingCount && pingsOldestFirst[next]!.recorded.position < entry.position) merged.push(pingBody(pingsOldestFirst[next++]!));
    merged.push(eventBody(entry));
  }
  while (next < pingCount && pingsOldestFirst[next]!.recorded.position < lastRead) merged.push(pingBody(pingsOldestFirst[next++]!));
  return { data: merged.slice(offset - mergedFrom, offset - mergedFrom + page.limit), total };
}

/**
 * The recorded history, oldest first: every event with its type, time, actor and data (secrets
 * redacted). A monitor's history holds its pings as well, those the log keeps; a project's history
 * does not (each of its monitors' does, and its ping history).
 */
export function historyRoutes(router: Router<VigilState>, deps: ApiDependencies): void {
  const { readModels } = deps;
  const events: EventStore = deps.commands.events;

  async function answer(query: Record<string, unknown>, scope: Filter, pingsOf?: string) {
    const page = pageOf(query, 200);
    const range = decode(HistoryRangeQuery, queryFields(query, HistoryRangeQuery), 'query');
    const time = { ...(range.from ? { $gte: range.from } : {}), ...(range.to ? { $lte: range.to } : {}) };
    const types = listFilter(query['type'], 'type', ALL_EVENT_TYPES);
    const filter: Filter = { ...scope, ...types, ...(Object.keys(time).length > 0 ? { time } : {}) };
    const typeCondition = types['type'];
    const listsPings = typeCondition === undefined || (typeof typeCondition === 'object' && typeCondition !== null && (typeCondition.$in ?? []).includes('PingReceived'));
    if (pingsOf !== undefined && listsPings) {
      const pings = (await recordedPings(events, pingsOf))
        .filter(({ recorded }) => (range.from === undefined || recorded.created >= range.from) && (range.to === undefined || recorded.created <= range.to))
        .reverse();
      const { data, total } = await monitorHistoryPage(readModels, filter, pings, page);
      return envelope(data, page, total);
    }
    const { docs, total } = await pagedFind<AuditEventDocument>(readModels, 'audit_events', filter, [['position', 1]], page);
    return envelope(docs.map(eventBody), page, total);
  }

  router.get('/monitors/:monitorId/events', async (ctx) => {
    const monitor = await gatedMonitor(readModels, ctx.state, ctx.params['monitorId'], { scope: 'read' });
    ctx.body = await answer(ctx.query, { monitor_id: monitor.id }, monitor.id);
  });

  router.get('/projects/:projectId/events', async (ctx) => {
    const projectId = pathId(ctx.params['projectId'], 'project');
    await gate(readModels, ctx.state.caller, { scope: 'read' }, projectId);
    ctx.body = await answer(ctx.query, { project_id: projectId });
  });
}
