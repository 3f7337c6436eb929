import { expect } from 'chai';
import { monitorRemovalsProjection } from '../../projections/monitor-removals.js';
import { slotOf } from '../../src/coordination/partitions.js';
import type { VigilEvent } from '../../src/domain/events.js';
import type { ProjectedEvent } from '../../src/projector/projection.js';

const at = '2026-11-21T00:00:00.000Z';
const ids = { monitor_id: 'm1', project_id: 'p1' };
let position = 0;
const projected = (event: VigilEvent, streamName: string): ProjectedEvent => ({ ...event, id: `e${position}`, position: (position += 1), streamName, revision: 0, created: at, metadata: {} });

const deleted = projected({ type: 'MonitorDeleted', data: { ...ids, deleted_at: at } }, 'monitor-m1');
const removed = projected({ type: 'ProjectMonitorRemoved', data: { ...ids, name: 'Backup', slug: 'backup', monitor_type: 'JOB_BASIC', monitor_created_at: at, removed_at: at } }, 'project-p1');
const finished = projected({ type: 'ProjectMonitorStreamsDeleted', data: { ...ids, deleted_at: at } }, 'project-p1');
const workflowStarted = projected({ type: 'MonitorDeletionStarted', data: { ...ids, at } }, 'monitor-deletion-m1');
const workflowFinished = projected({ type: 'MonitorDeletionFinished', data: { ...ids, at } }, 'monitor-deletion-m1');

/** The document after `events`, as the projector would build it. */
function replay(events: ProjectedEvent[]) {
  return events.reduce<ReturnType<typeof monitorRemovalsProjection.apply>>((doc, event) => monitorRemovalsProjection.apply(doc, event, 'm1'), null);
}

describe('Monitor removals projection', () => {
  it('holds a deletion from MonitorDeleted until its project records that its streams are gone', () => {
    expect(replay([deleted])).to.deep.equal({ id: 'm1', project_id: 'p1', slot: slotOf('m1') });
    expect(replay([deleted, removed])).to.deep.equal({ id: 'm1', project_id: 'p1', slot: slotOf('m1') });
    expect(replay([deleted, removed, finished])).to.equal(null);
  });

  it('rebuilds the same document once MonitorDeleted has left the log with the monitor\'s streams', () => {
    expect(replay([removed])).to.deep.equal(replay([deleted, removed]));
    expect(replay([removed, finished])).to.equal(null);
  });

  it('holds a deletion the workflow has started until it has finished', () => {
    expect(replay([deleted, workflowStarted])).to.deep.equal(replay([deleted]));
    expect(replay([workflowStarted])).to.deep.equal(replay([deleted]));
    expect(replay([deleted, workflowStarted, removed])).to.deep.equal(replay([deleted]));
    expect(replay([deleted, workflowStarted, removed, finished, workflowFinished])).to.equal(null);
    // Rebuilt once the monitor's streams have left the log: its project's events and the workflow's stay.
    expect(replay([workflowStarted, removed, finished, workflowFinished])).to.equal(null);
  });

  it('targets the monitor the event is about', () => {
    for (const event of [deleted, removed, finished, workflowStarted, workflowFinished]) expect(monitorRemovalsProjection.targets(event)).to.deep.equal({ ids: ['m1'] });
  });
});
