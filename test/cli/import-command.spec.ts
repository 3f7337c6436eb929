import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCliCaptured } from '../support/cli-run.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../support/test-vigil.js';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/import/${name}`, import.meta.url));

interface Report {
  created: { slug: string; name: string; id: string; type: string; paused: boolean; notes: string[] }[];
  skipped: { slug: string; name: string; id: string; reason: string }[];
  unmapped: { name: string; reason: string }[];
}

describe('vigil import', function () {
  this.timeout(60_000);
  let vigil: TestVigil;
  let key: string;
  let projectId: string;
  // The CLI stamps what it writes with the wall clock, as it would beside a real server.
  beforeEach(async () => {
    vigil = await TestVigil.start({ clock: new TestClock(Date.now()) });
    key = await vigil.accountKey(await vigil.user('importer@example.com'), ALL_SCOPES);
    projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Imported' } })).body.project.id;
  });
  afterEach(() => vigil.stop());

  const cli = async (args: string[]) => {
    const run = await runCliCaptured(args, vigil.env);
    return { ...run, stdout: run.stdout.join('\n') };
  };
  const importJson = async (source: string, file: string) => {
    const run = await cli(['import', source, fixture(file), '--project', projectId, '--json']);
    expect(run.code, run.stderr).to.equal(0);
    return JSON.parse(run.stdout) as Report;
  };
  async function monitors() {
    await vigil.settle();
    const answer = await vigil.request('GET', `/v1/monitors?project_id=${projectId}`, { key });
    expect(answer.status, answer.text).to.equal(200);
    return answer.body.monitors as Record<string, unknown>[];
  }

  describe('healthchecks', () => {
    it('creates the checks as monitors with their schedules, grace and time zones, and reports what it could not map', async () => {
      const report = await importJson('healthchecks', 'healthchecks-checks.json');
      expect(report.created.map((c) => [c.slug, c.type, c.paused])).to.deep.equal([
        ['backups', 'JOB_HEARTBEAT', false],
        ['nightly-report', 'JOB_CRON', false],
        ['legacy-sync', 'JOB_HEARTBEAT', true],
        ['db-dump-weekly', 'JOB_CRON', false],
      ]);
      expect(report.skipped).to.deep.equal([]);
      expect(report.unmapped.map((u) => u.name)).to.deep.equal(['Warm caches at boot', 'Office hours sync', 'Broken schedule']);
      expect(report.unmapped[2]!.reason, 'refused as POST /v1/monitors refuses it').to.equal('schedule: cron minute values must be 0 to 59, got 61');

      const bySlug = Object.fromEntries((await monitors()).map((m) => [m['slug'], m]));
      expect(Object.keys(bySlug).sort()).to.deep.equal(['backups', 'db-dump-weekly', 'legacy-sync', 'nightly-report']);
      expect(bySlug['backups']).to.deep.include({ name: 'Backups', type: 'JOB_HEARTBEAT', schedule: '1d', grace_period_seconds: 900, timezone: 'UTC', description: 'Runs every night after the database dump' });
      expect(bySlug['backups']!['tags']).to.deep.equal(['prod', 'www']);
      expect(bySlug['nightly-report']).to.deep.include({ type: 'JOB_CRON', schedule: '0 3 * * 1-5', timezone: 'Europe/Riga', grace_period_seconds: 3600 });
      expect(bySlug['legacy-sync']!['status']).to.equal('PAUSED');
      expect(report.created.find((c) => c.slug === 'backups')!.id).to.equal(bySlug['backups']!['id']);
    });

    it('creates nothing on a second run: every monitor is already there', async () => {
      const first = await importJson('healthchecks', 'healthchecks-checks.json');
      const before = await monitors();
      const second = await importJson('healthchecks', 'healthchecks-checks.json');
      expect(second.created).to.deep.equal([]);
      expect(second.skipped.map((s) => [s.slug, s.reason, s.id])).to.deep.equal(first.created.map((c) => [c.slug, 'already there', c.id]));
      expect(second.unmapped.map((u) => u.name)).to.deep.equal(first.unmapped.map((u) => u.name));
      expect((await monitors()).map((m) => m['id']).sort()).to.deep.equal(before.map((m) => m['id']).sort());
    });

    it('prints a table of created, skipped and unmapped monitors without --json', async () => {
      const run = await cli(['import', 'healthchecks', fixture('healthchecks-checks.json'), '--project', projectId]);
      expect(run.code, run.stderr).to.equal(0);
      const lines = run.stdout.split('\n');
      expect(lines[0]).to.match(/^created\s+backups\s+JOB_HEARTBEAT  Backups$/);
      expect(run.stdout).to.match(/^created\s+legacy-sync\s+JOB_HEARTBEAT \(paused\)  Legacy sync$/m);
      expect(run.stdout).to.match(/^\s+note: slug legacy_sync became legacy-sync$/m);
      expect(run.stdout).to.match(/^unmapped\s+Warm caches at boot\s+schedule @reboot runs once at boot/m);
      expect(lines[lines.length - 1]).to.equal('4 created, 0 already there, 3 not imported');
      const again = await cli(['import', 'healthchecks', fixture('healthchecks-checks.json'), '--project', projectId]);
      expect(again.stdout).to.match(/^skipped\s+backups\s+already there$/m);
      expect(again.stdout.split('\n').pop()).to.equal('0 created, 4 already there, 3 not imported');
    });

    it('creates nothing with --dry-run', async () => {
      const run = await cli(['import', 'healthchecks', fixture('healthchecks-checks.json'), '--project', projectId, '--dry-run']);
      expect(run.code, run.stderr).to.equal(0);
      expect(run.stdout.split('\n').pop()).to.equal('4 to create, 0 already there, 3 not imported');
      expect(await monitors()).to.deep.equal([]);
    });
  });

  describe('uptime-kuma', () => {
    it('creates http, keyword, json-query, port, dns and push monitors with their settings, headers sealed, and reports the rest', async () => {
      const report = await importJson('uptime-kuma', 'uptime-kuma-backup.json');
      expect(report.created.map((c) => [c.slug, c.type, c.paused])).to.deep.equal([
        ['homepage', 'UPTIME_HTTP', false],
        ['api-health', 'UPTIME_HTTP', false],
        ['nightly-backup', 'JOB_HEARTBEAT', false],
        ['database-port', 'UPTIME_TCP', false],
        ['checkout', 'UPTIME_HTTP', true],
        ['homepage-2', 'UPTIME_HTTP', false],
        ['shop-mx', 'UPTIME_DNS', false],
        ['payments-status', 'UPTIME_HTTP', false],
      ]);
      expect(report.unmapped.map((u) => u.name)).to.deep.equal(['Gateway ping', 'Inverted', 'Delete probe', 'Shop', 'Shop CAA', 'Queue depth']);

      const bySlug = Object.fromEntries((await monitors()).map((m) => [m['slug'], m]));
      expect(bySlug['api-health']).to.deep.include({
        type: 'UPTIME_HTTP', schedule: '5m', uptime_url: 'https://api.shop.example/health', uptime_method: 'POST', uptime_keyword: '"status":"ok"',
        uptime_request_body: '{"deep": true}', uptime_follow_redirects: false, uptime_verify_ssl: false,
      });
      expect(bySlug['api-health']!['uptime_headers']).to.deep.equal({ 'X-Probe': '••••••', Authorization: '••••••', 'Content-Type': '••••••' });
      expect(bySlug['homepage']).to.deep.include({ failure_tolerance: 3, schedule: '1m' });
      expect(bySlug['nightly-backup']).to.deep.include({ type: 'JOB_HEARTBEAT', schedule: '1d', grace_period_seconds: 1800 });
      expect(bySlug['checkout']!['status']).to.equal('PAUSED');
      expect(bySlug['database-port']).to.deep.include({ type: 'UPTIME_TCP', schedule: '1m', tcp_host: 'db.shop.example', tcp_port: 5432, tcp_timeout_ms: 10000 });
      expect(bySlug['shop-mx']).to.deep.include({ type: 'UPTIME_DNS', schedule: '5m', failure_tolerance: 2, dns_hostname: 'shop.example', dns_record_type: 'MX', dns_resolver: '9.9.9.9:5353' });
      expect(bySlug['payments-status']).to.deep.include({ type: 'UPTIME_HTTP', uptime_json_query: 'checks[0].status', uptime_json_operator: 'equals', uptime_json_expected: 'ok' });
      const exported = await cli(['events', 'export', '--project', projectId]);
      expect(exported.stdout).to.include('MonitorCreated');
      expect(exported.stdout, 'the basic auth password never enters an event as sent').to.not.include(Buffer.from('probe:s3cret').toString('base64'));
    });

    it('creates nothing on a second run', async () => {
      await importJson('uptime-kuma', 'uptime-kuma-backup.json');
      const second = await importJson('uptime-kuma', 'uptime-kuma-backup.json');
      expect(second.created).to.deep.equal([]);
      expect(second.skipped.map((s) => s.slug)).to.deep.equal(['homepage', 'api-health', 'nightly-backup', 'database-port', 'checkout', 'homepage-2', 'shop-mx', 'payments-status']);
      expect(await monitors()).to.have.length(8);
    });
  });

  it('refuses what it cannot read before writing anything: a usage mistake, a file of the other tool, an unknown project', async () => {
    const usage = await cli(['import', 'nagios', fixture('healthchecks-checks.json'), '--project', projectId]);
    expect(usage.code).to.equal(2);
    expect(usage.stderr).to.match(/^vigil: import reads healthchecks or uptime-kuma, not nagios\nusage:/);
    expect((await cli(['import', 'healthchecks', fixture('healthchecks-checks.json')])).stderr).to.match(/^vigil: --project is required/);

    const wrong = await cli(['import', 'uptime-kuma', fixture('healthchecks-checks.json'), '--project', projectId]);
    expect(wrong.code).to.equal(1);
    expect(wrong.stderr).to.equal('vigil: this is not an Uptime Kuma JSON backup: it has no "monitorList"; nothing was imported\n');

    const notJson = join(vigil.dataDir, 'not-json.json');
    writeFileSync(notJson, '{"checks": [');
    expect((await cli(['import', 'healthchecks', notJson, '--project', projectId])).stderr).to.match(/^vigil: .*not-json\.json is not JSON/);

    const unknown = await cli(['import', 'healthchecks', fixture('healthchecks-checks.json'), '--project', '00000000-0000-4000-8000-000000000000']);
    expect(unknown.code).to.equal(1);
    expect(unknown.stderr).to.match(/^vigil: no project has the id 00000000-0000-4000-8000-000000000000 in /);
    expect(await monitors()).to.deep.equal([]);
  });
});
