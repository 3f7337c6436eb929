import { expect } from 'chai';
import { type IncidentRecordEvent, incidentRecordDecider, incidentStream } from '../../../src/domain/incidents/incident-record.js';
import { deciderSpec } from '../../support/decider.js';

const { given } = deciderSpec(incidentRecordDecider);
const ids = { incident_id: 'inc-1', monitor_id: 'm-1', project_id: 'p-1' };
const evidence = {
  ...ids,
  configuration: { name: 'Backup', type: 'JOB_HEARTBEAT', schedule: '1h' },
  evidence: [{ ping_id: 'pg-1', kind: 'fail', received_at: '2026-11-21T10:00:00.000Z' }],
  recorded_at: '2026-11-21T10:00:01.000Z',
};
const archive = {
  ...ids,
  incident: { event: 'FAILED', started_at: '2026-11-21T10:00:00.000Z', resolved_at: '2026-11-21T10:30:00.000Z' },
  configuration: { name: 'Backup' },
  timeline: [{ type: 'IncidentOpened' }, { type: 'IncidentResolved' }],
  archived_at: '2026-11-22T09:00:00.000Z',
};
const recorded: IncidentRecordEvent = { type: 'IncidentEvidenceRecorded', data: evidence };
const archived: IncidentRecordEvent = { type: 'IncidentArchived', data: archive };

describe('Incident record', () => {
  it('lives in the incident\'s own stream', () => {
    expect(incidentStream('inc-1')).to.equal('incident-inc-1');
  });

  describe('evidence', () => {
    it('records the configuration and evidence when the incident opens', () => {
      given([]).when({ type: 'RecordEvidence', data: evidence }).then([recorded]);
    });

    it('records it once: a retried opening adds nothing', () => {
      given([recorded]).when({ type: 'RecordEvidence', data: { ...evidence, recorded_at: '2026-11-21T10:00:05.000Z' } }).then([]);
    });
  });

  describe('archive', () => {
    it('archives the whole record and timeline when the monitor is deleted', () => {
      given([recorded]).when({ type: 'ArchiveIncident', data: archive }).then([archived]);
    });

    it('archives an incident opened before evidence was recorded', () => {
      given([]).when({ type: 'ArchiveIncident', data: { ...archive, configuration: null } }).then([{ type: 'IncidentArchived', data: { ...archive, configuration: null } }]);
    });

    it('archives once: a resumed deletion adds nothing', () => {
      given([recorded, archived]).when({ type: 'ArchiveIncident', data: { ...archive, archived_at: '2026-11-22T09:01:00.000Z' } }).then([]);
    });
  });
});
