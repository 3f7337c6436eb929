import { expect } from 'chai';
import { monitorDependenciesProjection } from '../../projections/monitor-dependencies.js';
import type { VigilEvent } from '../../src/domain/events.js';
import { MONITOR_DEFAULTS, type MonitorConfig } from '../../src/domain/monitors/monitor-config.js';
import type { ProjectedEvent } from '../../src/projector/projection.js';

const at = '2026-11-21T00:00:00.000Z';
let position = 0;
const projected = (event: VigilEvent): ProjectedEvent => ({ ...event, id: `e${position}`, position: (position += 1), streamName: 'monitor-x', revision: 0, created: at, metadata: {} });
const config = (depends_on?: string[]): MonitorConfig => ({ ...MONITOR_DEFAULTS, name: 'M', slug: 'm', type: 'JOB_BASIC', schedule: 'x', uptime: null, ...(depends_on ? { depends_on } : {}) });
const created = (monitor_id: string, depends_on?: string[]) => projected({ type: 'MonitorCreated', data: { monitor_id, project_id: 'p1', config: config(depends_on), created_at: at, next_expected_at: null } });
const updated = (monitor_id: string, depends_on: string[]) =>
  projected({ type: 'MonitorUpdated', data: { monitor_id, project_id: 'p1', config: config(depends_on), updated_at: at, last_ping_seq: null, next_expected_at: null } });
const deleted = (monitor_id: string) => projected({ type: 'MonitorDeleted', data: { monitor_id, project_id: 'p1', deleted_at: at } });

function replay(events: ProjectedEvent[]) {
  return events.reduce<ReturnType<typeof monitorDependenciesProjection.apply>>((doc, event) => monitorDependenciesProjection.apply(doc, event, 'p1'), null);
}

describe('Monitor dependencies projection', () => {
  it('keeps what each monitor of a project depends on, and nothing for a project without dependencies', () => {
    expect(replay([created('db'), created('job', ['db'])])).to.deep.equal({ id: 'p1', project_id: 'p1', edges: { job: ['db'] } });
    expect(replay([created('db'), created('job', ['db']), updated('job', [])])).to.equal(null);
    expect(replay([created('db'), created('job')])).to.equal(null);
  });

  it('rebuilds the same document once a deleted monitor’s streams have left the log', () => {
    const live = replay([created('db'), created('job', ['db']), created('old', ['db']), deleted('old')]);
    expect(live).to.deep.equal({ id: 'p1', project_id: 'p1', edges: { job: ['db'] } });
    expect(replay([created('db'), created('job', ['db'])])).to.deep.equal(live);
  });

  it('targets the project the monitor belongs to', () => {
    expect(monitorDependenciesProjection.targets(created('job', ['db']))).to.deep.equal({ ids: ['p1'] });
  });
});
