import { expect } from 'chai';
import { type AddIncidentNote, type IncidentNoteInput, incidentNotesDecider } from '../../../src/domain/incidents/incident-notes.js';
import { MONITOR_DEFAULTS } from '../../../src/domain/monitors/monitor-config.js';
import { deciderSpec } from '../../support/decider.js';

const { given } = deciderSpec(incidentNotesDecider);
const ids = { monitor_id: 'm-1', project_id: 'p-1' };
const T0 = '2026-11-21T10:00:00.000Z';
const T1 = '2026-11-21T10:05:00.000Z';
const by = { user_id: 'u-1', email: 'ops@example.com', api_key_id: 'k-1' };

const created: IncidentNoteInput = {
  type: 'MonitorCreated',
  data: { ...ids, config: { ...MONITOR_DEFAULTS, name: 'Backup', slug: 'backup', type: 'JOB_HEARTBEAT', schedule: '1h', uptime: null }, created_at: T0, next_expected_at: null },
};
const opened = (incident_id = 'inc-1'): IncidentNoteInput => ({
  type: 'IncidentOpened',
  data: { ...ids, incident_id, event: 'FAILED', cause: 'exit code 1', started_at: T0, monitor_name: 'Backup', monitor_slug: 'backup', ping_id: null },
});
const acknowledged: IncidentNoteInput = { type: 'IncidentAcknowledged', data: { ...ids, incident_id: 'inc-1', acknowledged_at: T0, ...by } };
const resolved = (incident_id = 'inc-1'): IncidentNoteInput => ({
  type: 'IncidentResolved',
  data: { ...ids, incident_id, resolved_at: T0, by_kind: 'system', user_id: null, email: null, api_key_id: null, reason: 'SUCCESS_PING' },
});
const archived: IncidentNoteInput = {
  type: 'IncidentArchived',
  data: { ...ids, incident_id: 'inc-1', incident: {}, configuration: null, timeline: [], archived_at: T0 },
};

function add(overrides: Partial<AddIncidentNote> = {}): AddIncidentNote {
  return { type: 'AddIncidentNote', incident_id: 'inc-1', note_id: 'n-1', kind: 'note', visibility: 'internal', text: 'Restarted the database host', by, now: T1, ...overrides };
}
const noteAdded = (overrides: Partial<AddIncidentNote> = {}): IncidentNoteInput => {
  const c = add(overrides);
  return {
    type: 'IncidentNoteAdded',
    data: { incident_id: c.incident_id, ...ids, note_id: c.note_id, kind: c.kind, visibility: c.visibility, text: c.text.trim(), added_at: c.now, ...by },
  };
};

describe('Incident notes', () => {
  describe('while the incident is open', () => {
    it('records a note with who wrote it, its visibility and its trimmed text', () => {
      given([created, opened()]).when(add({ text: '  Restarted the database host \n' })).then([noteAdded()]);
    });

    it('records a note on an ACKNOWLEDGED incident too: acknowledged is still open', () => {
      given([created, opened(), acknowledged]).when(add({ visibility: 'public' })).then([noteAdded({ visibility: 'public' })]);
    });

    it('refuses a postmortem, which waits for the resolution', () => {
      given([created, opened(), acknowledged]).when(add({ kind: 'postmortem' })).thenRefuses('invalid', /a postmortem is written once the incident is RESOLVED; this one is ACKNOWLEDGED/);
    });
  });

  describe('once the incident is resolved', () => {
    it('records a postmortem', () => {
      given([created, opened(), resolved()]).when(add({ kind: 'postmortem', visibility: 'public' })).then([noteAdded({ kind: 'postmortem', visibility: 'public' })]);
    });

    it('records a second postmortem: a correction is a new one, never an edit', () => {
      given([created, opened(), resolved(), noteAdded({ kind: 'postmortem' })])
        .when(add({ kind: 'postmortem', note_id: 'n-2', text: 'Corrected: the disk was full' }))
        .then([noteAdded({ kind: 'postmortem', note_id: 'n-2', text: 'Corrected: the disk was full' })]);
    });

    it('refuses a note, which is for an open incident', () => {
      given([created, opened(), resolved()]).when(add()).thenRefuses('invalid', /the incident is RESOLVED: a note is for an open incident; write a postmortem/);
    });
  });

  it('reads the status of its own incident among the monitor\'s others', () => {
    given([created, opened('inc-0'), resolved('inc-0'), opened()]).when(add()).then([noteAdded()]);
    given([created, opened(), opened('inc-2'), resolved()]).when(add()).thenRefuses('invalid', /RESOLVED/);
  });

  it('records nothing twice: a retried note with the same id is already there', () => {
    given([created, opened(), noteAdded()]).when(add()).then([]);
  });

  it('refuses any note on an incident archived with its deleted monitor', () => {
    given([created, opened(), resolved(), archived]).when(add({ kind: 'postmortem' })).thenRefuses('invalid', /archived with its deleted monitor; it takes no more notes/);
    // Its monitor's streams already gone: only its own stream is left to say so.
    given([archived]).when(add()).thenRefuses('invalid', /archived/);
    given([created, opened(), resolved(), { type: 'MonitorDeleted', data: { ...ids, deleted_at: T1 } }]).when(add({ kind: 'postmortem' })).thenRefuses('invalid', /archived/);
  });

  it('refuses a note on an incident its monitor never opened', () => {
    given([created, opened('inc-0')]).when(add()).thenRefuses('not_found', /incident not found/);
  });

  it('refuses a text that is empty once trimmed, or longer than 4000 characters', () => {
    given([created, opened()]).when(add({ text: ' \n\t ' })).thenRefuses('invalid', /text must be 1 to 4000 characters/);
    given([created, opened()]).when(add({ text: 'x'.repeat(4001) })).thenRefuses('invalid', /text must be 1 to 4000 characters/);
    expect(incidentNotesDecider.decide(add({ text: ` ${'x'.repeat(4000)} ` }), [created, opened()].reduce(incidentNotesDecider.evolve, incidentNotesDecider.initialState()))).to.have.length(1);
  });
});
