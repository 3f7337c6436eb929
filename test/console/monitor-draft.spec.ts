import { expect } from 'chai';
import type { MonitorDocument } from '../../projections/monitors.js';
import { CreateMonitorBody, UpdateMonitorBody } from '../../src/web/codecs/monitors.js';
import { configFromCreate, patchFromUpdate } from '../../src/web/monitor-input.js';
import { decode } from '../../src/web/validation.js';
import { shownUptime } from '../../src/domain/monitors/monitor-config.js';
import { FormRefusal, bodyOf, draftFromMonitor, emptyDraft, inFormWords, secondsText } from '../../src/console/monitor-draft.js';
import { schedulePreview } from '../../src/console/schedule-preview.js';

const NOW = new Date('2026-11-21T12:00:00.000Z');

/** A monitor document as the projection makes one from a create body. */
function documentOf(body: Record<string, unknown>): MonitorDocument {
  const config = configFromCreate(decode(CreateMonitorBody, body));
  return {
    ...config, uptime: config.uptime && shownUptime(config.uptime), id: '00000000-0000-4000-8000-000000000001', project_id: '00000000-0000-4000-8000-000000000002',
    status: 'UP', health: 'UP', paused: false, consecutive_failures: 0, consecutive_misses: 0, consecutive_alerts: 0, alerts_paused_until: null, last_success_at: null,
    next_expected_at: null, total_pings_received: 0, is_new: true, last_seen_at: null, pings_stream_length: 0, created_at: NOW.toISOString(), updated_at: NOW.toISOString(),
  };
}

const refusalOf = (run: () => unknown): FormRefusal => {
  try {
    run();
  } catch (error) {
    if (error instanceof FormRefusal) return error;
    throw error;
  }
  throw new Error('not refused');
};

describe('The console\'s monitor form', () => {
  describe('read back from a monitor', () => {
    it('gives the same settings when saved unchanged, header values kept as masks', () => {
      const doc = documentOf({
        name: 'Shop', type: 'UPTIME_HTTP', schedule: '1m', timezone: 'Europe/Paris', uptime_url: 'https://shop.example.com/health', uptime_expected_status: [200, 204],
        uptime_headers: { Authorization: 'Bearer s3cret' }, uptime_timeout_ms: 5000, uptime_verify_ssl: false, failure_tolerance: 3, tags: ['web', 'shop'],
        uptime_json_query: 'status', uptime_json_expected: 'ok',
      });
      const draft = draftFromMonitor(doc);
      expect(draft.text.http_headers).to.equal('Authorization: ••••••');
      expect(draft.text.http_headers).to.not.contain('s3cret');
      const patch = patchFromUpdate(decode(UpdateMonitorBody, bodyOf(draft, doc.type, doc.schedule)), doc.type);
      expect(patch.uptime).to.deep.include({
        uptime_url: 'https://shop.example.com/health', uptime_expected_status: [200, 204], uptime_headers: { Authorization: '••••••' }, uptime_timeout_ms: 5000,
        uptime_verify_ssl: false, uptime_follow_redirects: true, uptime_json_query: 'status', uptime_json_operator: 'equals', uptime_json_expected: 'ok',
      });
      expect(patch).to.deep.include({ name: 'Shop', schedule: '1m', timezone: 'Europe/Paris', failure_tolerance: 3, tags: ['web', 'shop'] });
      // An uptime monitor has no grace, durations or ping retention to set.
      expect(patch).to.not.have.any.keys('grace_period_seconds', 'min_duration_seconds', 'retention_count');
    });

    it('writes durations as people type them', () => {
      expect([0, 45, 90, 300, 3600, 5400, 86_400].map(secondsText)).to.deep.equal(['0', '45s', '90s', '5m', '1h', '90m', '1d']);
      const doc = documentOf({ name: 'Backup', type: 'JOB_CRON', schedule: '0 3 * * *', grace_period_seconds: 900, max_duration_seconds: 7200 });
      expect(draftFromMonitor(doc).text).to.include({ cron_schedule: '0 3 * * *', grace: '15m', min_duration: '', max_duration: '2h' });
    });
  });

  describe('when refused', () => {
    const cron = () => {
      const draft = emptyDraft();
      draft.text.name = 'Backup';
      return draft;
    };

    it('names the field as its label does', () => {
      const draft = cron();
      draft.text.grace = 'soon';
      const refusal = refusalOf(() => bodyOf(draft, 'JOB_CRON', ''));
      expect(refusal).to.include({ field: 'grace', status: 400 });
      expect(refusal.message).to.equal('Grace period must be a duration such as 90s, 5m, 2h or 1d (0 for none), not "soon"');
      draft.text.grace = '31d';
      expect(refusalOf(() => bodyOf(draft, 'JOB_CRON', '')).message).to.equal('Grace period must be at most 30 days');
      draft.text.grace = '90s';
      expect(bodyOf(draft, 'JOB_CRON', '')).to.include({ grace_period_seconds: 90 });
    });

    it('says the REST API\'s refusals in the form\'s words', () => {
      expect(inFormWords('schedule must be an interval such as 30s, 5m, 1h, 2d or 1w (from 1s to 365d) for JOB_HEARTBEAT monitors', 'JOB_HEARTBEAT')).to.include({
        field: 'heartbeat_every', message: 'Expected every must be an interval such as 30s, 5m, 1h, 2d or 1w (from 1s to 365d) for Heartbeat monitors',
      });
      expect(inFormWords('min_duration_seconds must be less than max_duration_seconds', 'JOB_CRON')).to.include({
        field: 'min_duration', message: 'Shortest normal run must be less than Longest normal run',
      });
      expect(inFormWords('uptime_url must be an http or https URL', 'UPTIME_HTTP')).to.include({ field: 'http_url', message: 'URL must be an http or https URL' });
      expect(inFormWords('tags[1] must be a string of 1 to 50 characters', 'JOB_CRON')).to.include({ field: 'tags', message: 'Tags (entry 2) must be a string of 1 to 50 characters' });
      // A plain word is a field only where it is what the sentence is about.
      expect(inFormWords('could not find a free slug for this name; send a slug', 'JOB_CRON').message).to.equal('Could not find a free slug for this name; send a slug');
      expect(inFormWords('slug nightly is already used by another monitor in this project', 'JOB_CRON', 409)).to.include({ field: 'slug', status: 409 });
    });

    it('asks for a name, header lines with a name, and status codes that are codes', () => {
      const draft = cron();
      draft.text.name = '  ';
      expect(refusalOf(() => bodyOf(draft, 'JOB_CRON', ''))).to.include({ field: 'name' });
      const http = cron();
      http.text.http_url = 'https://example.com';
      http.text.http_headers = 'no colon here';
      expect(refusalOf(() => bodyOf(http, 'UPTIME_HTTP', ''))).to.include({ field: 'http_headers' });
      http.text.http_headers = '';
      http.text.http_status = '200, ok';
      expect(refusalOf(() => bodyOf(http, 'UPTIME_HTTP', '')).message).to.contain('"ok" is not one');
    });
  });

  describe('schedule preview', () => {
    it('lists the next five times in the zone chosen, by the schedule code monitors are kept by', () => {
      const preview = schedulePreview('JOB_CRON', 'RRULE:FREQ=MONTHLY;BYDAY=MO;BYSETPOS=1;BYHOUR=9;BYMINUTE=0', 'Europe/Berlin', NOW);
      expect(preview).to.have.property('times').that.deep.equals([
        '2026-12-07T08:00:00.000Z', '2027-01-04T08:00:00.000Z', '2027-02-01T08:00:00.000Z', '2027-03-01T08:00:00.000Z', '2027-04-05T07:00:00.000Z',
      ]);
      expect(schedulePreview('JOB_HEARTBEAT', '90s', 'UTC', NOW)).to.have.property('times').with.length(5);
    });

    it('says in words why a schedule or a zone cannot be kept', () => {
      expect(schedulePreview('JOB_CRON', '0 3 31 2 *', 'UTC', NOW)).to.deep.equal({ problem: 'Cron expression or calendar rule: "0 3 31 2 *" never fires (February has no 31st)' });
      expect(schedulePreview('JOB_CRON', '0 3 * * *', 'Mars/Olympus', NOW)).to.deep.equal({ problem: 'Time zone must be an IANA time zone such as Europe/Berlin or UTC, not "Mars/Olympus"' });
      expect(schedulePreview('UPTIME_TCP', 'often', 'UTC', NOW)).to.have.property('problem').that.contains('Check every must be an interval');
      expect(schedulePreview('JOB_BASIC', '', 'UTC', NOW)).to.have.property('note');
    });
  });
});
