import { toJsonObject } from '../../src/app/command-handler.js';
import { expect } from 'chai';
import type { Actor } from '../../src/app/command-handler.js';
import { commandContext } from '../../src/app/context.js';
import { createMonitor, loadMonitorState, receivePing } from '../../src/app/monitors.js';
import { createProject } from '../../src/app/projects.js';
import { ALL_EVENT_TYPES } from '../../src/domain/events.js';
import { MONITOR_DEFAULTS, UPTIME_DEFAULTS, type MonitorConfig } from '../../src/domain/monitors/monitor-config.js';
import { EventDecodeError, decodeEvent } from '../../src/event-codecs/decode.js';
import { EVENT_CODECS, currentVersion } from '../../src/event-codecs/registry.js';
import { UPCASTERS } from '../../src/event-codecs/upcasters.js';
import type { JsonObject, RecordedEvent } from '../../src/eventstore/event-store.js';
import { Projector } from '../../src/projector/projector.js';
import { allProjections } from '../../projections/index.js';
import { type EmbeddedStores, openEmbeddedStores } from '../support/embedded-stores.js';

const actor: Actor = { kind: 'system', user_id: null, api_key_id: null, request_id: 'r-1' };
const at = '2026-11-21T00:00:00.000Z';
const heartbeat: MonitorConfig = { ...MONITOR_DEFAULTS, name: 'Backup', slug: 'backup', type: 'JOB_HEARTBEAT', schedule: '1h', uptime: null };
const success = { event: 'SUCCESS' as const, run_id: null, exit_code: 0, duration_ms: null, message: null, payload: null, payload_truncated: false, payload_bytes: null, request_ip: null, request_ua: null };

const recorded = (type: string, given: object, metadata: JsonObject = {}): RecordedEvent => ({
  id: 'e-1',
  streamName: 'monitor-m1',
  type,
  revision: 3,
  position: 10,
  // As the log holds it: JSON.
  data: toJsonObject(given),
  metadata,
  created: at,
});

/** A monitor's config as recorded by a Vigil from before uptime header values were sealed. */
const unsealedConfig = {
  ...heartbeat,
  type: 'UPTIME_HTTP',
  schedule: '60s',
  uptime: { ...UPTIME_DEFAULTS, uptime_url: 'http://127.0.0.1:9/', uptime_headers: { Authorization: 'Bearer plain' } },
};

describe('Event codecs', () => {
  it('have a codec for every event type in the registry, which refuses data without its fields', () => {
    for (const type of ALL_EVENT_TYPES) {
      expect(Object.hasOwn(EVENT_CODECS, type), type).to.equal(true);
      expect(EVENT_CODECS[type].is({}), type).to.equal(false);
    }
    expect(Object.keys(EVENT_CODECS)).to.have.members(ALL_EVENT_TYPES);
  });

  it('have an upcaster from every older version of each type', () => {
    for (const type of ALL_EVENT_TYPES) {
      for (let version = 1; version < currentVersion(type); version += 1) expect(UPCASTERS[type]?.[version], `${type} v${version}`).to.be.a('function');
    }
  });

  describe('decodeEvent', () => {
    it('upcasts a version 1 MonitorCreated recorded before header values were sealed: they are said to be unsealed', () => {
      const event = decodeEvent(recorded('MonitorCreated', { monitor_id: 'm1', project_id: 'p1', config: unsealedConfig, created_at: at, next_expected_at: null }));
      expect(event.type).to.equal('MonitorCreated');
      if (event.type !== 'MonitorCreated') return;
      expect(event.data.config.uptime).to.include({ uptime_headers_sealed: false });
      expect(event.data.config.uptime?.uptime_headers).to.deep.equal({ Authorization: 'Bearer plain' });
    });

    it('upcasts a version 1 MonitorUpdated the same way, and leaves the event it read unedited', () => {
      const data = { monitor_id: 'm1', project_id: 'p1', config: unsealedConfig, updated_at: at, last_ping_seq: null, next_expected_at: null };
      const event = decodeEvent(recorded('MonitorUpdated', data));
      expect(event.type === 'MonitorUpdated' && event.data.config.uptime?.uptime_headers_sealed).to.equal(false);
      expect(data.config.uptime).not.to.have.property('uptime_headers_sealed');
    });

    it('keeps the flag of a version 1 event recorded after sealing began, and of a version 2 event', () => {
      const sealed = { ...unsealedConfig, uptime: { ...unsealedConfig.uptime, uptime_headers_sealed: true } };
      const data = { monitor_id: 'm1', project_id: 'p1', config: sealed, created_at: at, next_expected_at: null };
      const metadatas: JsonObject[] = [{}, { schema_version: 2 }];
      for (const metadata of metadatas) {
        const event = decodeEvent(recorded('MonitorCreated', data, metadata));
        expect(event.type === 'MonitorCreated' && event.data.config.uptime?.uptime_headers_sealed).to.equal(true);
      }
    });

    it('upcasts a version 1 ProjectMonitorRemoved: the monitor’s type and creation are unknown', () => {
      const data = { project_id: 'p1', monitor_id: 'm1', name: 'Backup', slug: 'backup', removed_at: at };
      expect(decodeEvent(recorded('ProjectMonitorRemoved', data)).data).to.deep.equal({ ...data, monitor_type: null, monitor_created_at: null });
      const v2 = { ...data, monitor_type: 'JOB_BASIC', monitor_created_at: at };
      expect(decodeEvent(recorded('ProjectMonitorRemoved', v2, { schema_version: 2 })).data).to.deep.equal(v2);
    });

    it('reads a version 1 IncidentAcknowledged, which always named a key, as version 2, where a person signed in without one names none', () => {
      const data = { monitor_id: 'm1', project_id: 'p1', incident_id: 'i1', user_id: 'u1', email: 'ada@example.com', api_key_id: 'k1', acknowledged_at: at };
      expect(decodeEvent(recorded('IncidentAcknowledged', data)).data).to.deep.equal(data);
      const v2 = { ...data, api_key_id: null };
      expect(decodeEvent(recorded('IncidentAcknowledged', v2, { schema_version: 2 })).data).to.deep.equal(v2);
    });

    it('upcasts a version 1 ChecksSummarized, kept for good in the monitor stream: no hour before it named, no window', () => {
      const data = { monitor_id: 'm1', project_id: 'p1', hour: '2026-11-21T10:00:00.000Z', total: 1, up: 1, down: 0, times: [42], summarized_at: at };
      expect(decodeEvent(recorded('ChecksSummarized', data)).data).to.deep.equal({ ...data, previous_hour: null, summaries_kept: null });
      const v2 = { ...data, previous_hour: '2026-11-21T09:00:00.000Z', summaries_kept: 2232 };
      expect(decodeEvent(recorded('ChecksSummarized', v2, { schema_version: 2 })).data).to.deep.equal(v2);
    });

    it('reads fields a newer Vigil added to a newer version, keeping them', () => {
      const data = { project_id: 'p1', deleted_at: at, deleted_by_reason: 'tidy up' };
      const event = decodeEvent(recorded('ProjectDeleted', data, { schema_version: 7 }));
      expect(event.data).to.deep.equal(data);
    });

    it('refuses an event whose field has the wrong type, naming stream, revision, type and the field', () => {
      const bad = recorded('MonitorPaused', { monitor_id: 'm1', project_id: 'p1', paused_at: 1700000000 });
      expect(() => decodeEvent(bad)).to.throw(EventDecodeError, 'event MonitorPaused at monitor-m1@3 cannot be read: data.paused_at: expected string, got 1700000000');
    });

    it('names the path into nested data, and a nullable field by its union', () => {
      const config = { ...unsealedConfig, uptime: { ...unsealedConfig.uptime, uptime_timeout_ms: '10s' } };
      expect(() => decodeEvent(recorded('MonitorCreated', { monitor_id: 'm1', project_id: 'p1', config, created_at: at, next_expected_at: null }))).to.throw(
        EventDecodeError,
        'data.config.uptime.uptime_timeout_ms: expected',
      );
      expect(() => decodeEvent(recorded('MonitorResumed', { monitor_id: 'm1', project_id: 'p1', resumed_at: at }))).to.throw(
        'data.next_expected_at: expected (string | null), got nothing',
      );
    });

    it('refuses an unknown event type and a schema_version that is not one', () => {
      expect(() => decodeEvent(recorded('MonitorExploded', {}))).to.throw(EventDecodeError, 'MonitorExploded at monitor-m1@3 cannot be read: unknown event type');
      expect(() => decodeEvent(recorded('MonitorPaused', { monitor_id: 'm1', project_id: 'p1', paused_at: at }, { schema_version: 'two' }))).to.throw(
        EventDecodeError,
        'schema_version "two" is not a version',
      );
    });
  });

  describe('in the embedded log', () => {
    let stores: EmbeddedStores;
    beforeEach(() => (stores = openEmbeddedStores()));
    afterEach(() => stores.dispose());

    async function monitorWithPing() {
      const context = commandContext(stores.events);
      const { projectId } = await createProject(context, { name: 'P', description: '', owner_id: 'owner' }, actor);
      const { monitorId } = await createMonitor(context, { project_id: projectId, config: heartbeat, slugGiven: true }, actor);
      await receivePing(context, monitorId, success, actor);
      return { context, projectId, monitorId };
    }

    it('records the version of its type in every event appended', async () => {
      const { monitorId } = await monitorWithPing();
      const log = await stores.events.readAll();
      expect(log.map((e) => [e.type, e.metadata['schema_version']])).to.deep.include.members([
        ['ProjectCreated', 1],
        ['MonitorCreated', 2],
        ['PingReceived', 1],
      ]);
      expect(log.every((e) => e.metadata['schema_version'] === currentVersion(e.type))).to.equal(true);
      expect(log.some((e) => e.streamName === `monitor-${monitorId}`)).to.equal(true);
    });

    it('fails to load a monitor whose stream holds a corrupted event, naming stream and revision', async () => {
      const { context, projectId, monitorId } = await monitorWithPing();
      // Written past the deciders, straight into the store, as a bad import or a hand edit would.
      await stores.events.appendToStream(`monitor-${monitorId}`, [{ type: 'MonitorPaused', data: { monitor_id: monitorId, project_id: projectId, paused_at: 42 } }]);
      const revision = (await stores.events.readStream(`monitor-${monitorId}`)).at(-1)!.revision;
      const error: unknown = await loadMonitorState(context, monitorId).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(EventDecodeError);
      expect(String(error)).to.include(`event MonitorPaused at monitor-${monitorId}@${revision} cannot be read: data.paused_at: expected string, got 42`);
    });

    it('stops the projector at a corrupted event, naming it, instead of projecting it', async () => {
      const { projectId } = await monitorWithPing();
      await stores.events.appendToStream(`project-${projectId}`, [{ type: 'ProjectUpdated', data: { project_id: projectId, name: null, description: '', updated_at: at } }]);
      const projector = new Projector(stores.events, stores.readModels, allProjections());
      const error: unknown = await projector.catchUp().then(
        () => null,
        (e: unknown) => e,
      );
      expect(String(error)).to.match(new RegExp(`event ProjectUpdated at project-${projectId}@\\d+ cannot be read: data.name: expected string, got null`));
    });
  });
});
