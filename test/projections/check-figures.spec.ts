import { expect } from 'chai';
import { checkDaysProjection } from '../../projections/check-days.js';
import { checkHoursProjection } from '../../projections/check-results.js';
import type { CheckCompletedData, ChecksSummarizedData } from '../../src/domain/monitors/monitor.js';
import type { Projection, ProjectedEvent } from '../../src/projector/projection.js';

const ids = { monitor_id: 'm1', project_id: 'p1' };
const at = (minute: number) => new Date(Date.parse('2026-11-21T10:00:00.000Z') + minute * 60_000).toISOString();

let position = 0;
function check(minute: number, check_number: number | null, response_time_ms: number, is_up = true): ProjectedEvent {
  position += 1;
  const data: CheckCompletedData = {
    ...ids, check_id: `c${position}`, status_code: is_up ? 200 : 503, response_time_ms, is_up, error: null, ssl_expires_at: null, ssl_issuer: null, check_region: 'local',
    check_status: 'ok', cycle_id: null, attempts: 1, checked_at: at(minute), check_number, consecutive_failures: 0, last_success_at: null, next_expected_at: null, retention_count: 10,
  };
  const streamName = check_number === null ? 'monitor-m1' : 'pings-m1';
  return { type: 'CheckCompleted', data, id: `e${position}`, position, streamName, revision: check_number ?? position, created: at(minute), metadata: {} };
}

function summary(hour: string, times: number[], up: number, minute: number): ProjectedEvent {
  position += 1;
  const data: ChecksSummarizedData = { ...ids, hour, total: times.length, up, down: times.length - up, times, summarized_at: at(minute), previous_hour: null, summaries_kept: null };
  return { type: 'ChecksSummarized', data, id: `e${position}`, position, streamName: 'monitor-m1', revision: position, created: at(minute), metadata: {} };
}

/** What the projector keeps of `events`, one document per id. */
function fold<D extends object>(projection: Projection<D>, events: readonly ProjectedEvent[]): Map<string, D> {
  const docs = new Map<string, D>();
  for (const event of events) {
    for (const id of projection.targets(event).ids ?? []) {
      const next = projection.apply(docs.get(id) ?? null, event, id);
      if (next === null) docs.delete(id);
      else docs.set(id, next);
    }
  }
  return docs;
}

describe('Check figures (check_hours, check_days)', () => {
  // Two checks recorded before checks were numbered (in the monitor stream for good), three numbered
  // ones (in the pings stream), their hour's summary, and one more numbered check after it.
  const legacy = [check(0, null, 5), check(1, null, 6)];
  const summarized = [check(2, 1, 7), check(3, 2, 8, false), check(4, 3, 9)];
  const log = [...legacy, ...summarized, summary('2026-11-21T10:00:00.000Z', [7, 8, 9], 2, 5), check(5, 4, 10)];
  const afterRetention = log.filter((e) => !summarized.includes(e));

  it('count every check of the hour once: those from before summaries, those a summary covers, and those after it', () => {
    const [hour] = fold(checkHoursProjection, log).values();
    expect(hour).to.deep.include({ hour: '2026-11-21T10:00:00.000Z', total: 6, up: 5, down: 1, times: [5, 6, 7, 8, 9, 10], unsummarized: { total: 1, up: 1, down: 0 } });
    const [day] = fold(checkDaysProjection, log).values();
    expect(day).to.deep.include({ day: '2026-11-21', total: 6, up: 5, unsummarized: { '10:00': { total: 1, up: 1 } } });
  });

  it('are the same once retention has taken the checks a summary covers (a rebuild)', () => {
    expect([...fold(checkHoursProjection, afterRetention)]).to.deep.equal([...fold(checkHoursProjection, log)]);
    expect([...fold(checkDaysProjection, afterRetention)]).to.deep.equal([...fold(checkDaysProjection, log)]);
  });

  describe('once summaries leave their stream (kept to a window)', () => {
    const HOUR_MS = 3_600_000;
    /** Hourly summaries of one check each, from `from` for `hours`, each naming the one before it. */
    function summaries(from: string, hours: number, previous: string | null): ProjectedEvent[] {
      const events: ProjectedEvent[] = [];
      let before = previous;
      for (let i = 0; i < hours; i += 1) {
        const hour = new Date(Date.parse(from) + i * HOUR_MS).toISOString();
        position += 1;
        const data: ChecksSummarizedData = { ...ids, hour, total: 1, up: i % 5 === 0 ? 0 : 1, down: i % 5 === 0 ? 1 : 0, times: [i % 97], summarized_at: hour, previous_hour: before, summaries_kept: 2232 };
        events.push({ type: 'ChecksSummarized', data, id: `e${position}`, position, streamName: 'checkhours-m1', revision: position, created: hour, metadata: {} });
        before = hour;
      }
      return events;
    }

    it('drop the days and hours a pause in the checks left behind, as a rebuild that no longer finds their summaries makes them', () => {
      // Ten days of checks, 100 days paused, then 95 days more: the window (2,232) keeps 93 days of them.
      const first = summaries('2026-01-01T00:00:00.000Z', 10 * 24, null);
      const second = summaries('2026-04-21T00:00:00.000Z', 95 * 24, first.at(-1)!.created);
      const log = [...first, ...second];
      const kept = log.slice(-2232);
      for (const projection of [checkDaysProjection, checkHoursProjection] as Projection<object>[]) {
        const live = fold(projection, log);
        expect([...fold(projection, kept)], projection.name).to.deep.equal([...live]);
        expect(live.size, projection.name).to.equal(projection === checkHoursProjection ? 721 : 92);
      }
    });

    it('drop one day and one hour at a time while the checks go on', () => {
      const log = summaries('2026-01-01T00:00:00.000Z', 100 * 24, null);
      expect([...fold(checkDaysProjection, log.slice(-2232))]).to.deep.equal([...fold(checkDaysProjection, log)]);
      expect(fold(checkHoursProjection, log).size).to.equal(721);
    });
  });
});
