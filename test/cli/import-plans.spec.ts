import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { planHealthchecks } from '../../src/cli/import-healthchecks.js';
import { ImportFileError, intervalOf } from '../../src/cli/import-plan.js';
import { planUptimeKuma } from '../../src/cli/import-uptime-kuma.js';

const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`../fixtures/import/${name}`, import.meta.url), 'utf8'));

describe('Import plans', () => {
  describe('intervalOf', () => {
    it('writes seconds in the largest unit that divides them, and refuses what Vigil cannot watch', () => {
      expect([86400, 3600, 5400, 45, 604800, 1209600].map(intervalOf)).to.deep.equal(['1d', '1h', '90m', '45s', '1w', '2w']);
      expect([0, 366 * 86400].map(intervalOf)).to.deep.equal([null, null]);
    });
  });

  describe('planHealthchecks (the answer of GET /api/v3/checks/)', () => {
    const plan = planHealthchecks(fixture('healthchecks-checks.json'));
    const draft = (slug: string) => plan.drafts.find((d) => d.slug === slug)!;

    it('maps a simple check to JOB_HEARTBEAT on its period, with its grace, tags and description', () => {
      expect(draft('backups').body).to.deep.equal({
        name: 'Backups', slug: 'backups', type: 'JOB_HEARTBEAT', schedule: '1d', grace_period_seconds: 900, description: 'Runs every night after the database dump', tags: ['prod', 'www'],
      });
      expect(draft('backups').notes).to.deep.equal(['integrations not imported: attach Vigil notification channels']);
    });

    it('maps a cron check to JOB_CRON with its schedule, time zone and grace', () => {
      expect(draft('nightly-report').body).to.deep.include({ type: 'JOB_CRON', schedule: '0 3 * * 1-5', timezone: 'Europe/Riga', grace_period_seconds: 3600 });
      expect(draft('db-dump-weekly').body).to.deep.include({ name: 'DB Dump (weekly)', type: 'JOB_CRON', schedule: '@weekly', timezone: 'UTC' });
    });

    it('keeps a paused check paused, makes its slug one Vigil accepts and says what it left out', () => {
      expect(draft('legacy-sync').paused).to.equal(true);
      expect(draft('legacy-sync').notes).to.deep.equal([
        'slug legacy_sync became legacy-sync',
        'methods=POST not kept: Vigil takes pings by GET, HEAD and POST',
        'email keywords (start_kw, success_kw, failure_kw) not kept',
      ]);
    });

    it('reports @reboot and OnCalendar schedules as unmapped, with the reason', () => {
      expect(plan.unmapped).to.deep.equal([
        { source: 'Warm caches at boot', reason: 'schedule @reboot runs once at boot: there is no time at which a ping is due (a JOB_BASIC monitor pinged by the job may suit)' },
        { source: 'Office hours sync', reason: 'schedule "Mon..Fri *-*-* 09:00" is a systemd OnCalendar expression: write it as a cron expression or an RRULE' },
      ]);
      expect(plan.drafts.map((d) => d.slug)).to.deep.equal(['backups', 'nightly-report', 'legacy-sync', 'db-dump-weekly', 'broken-schedule']);
    });

    it('refuses a file that is not a list of checks', () => {
      expect(() => planHealthchecks({ monitorList: [] })).to.throw(ImportFileError, /GET \/api\/v3\/checks\//);
    });
  });

  describe('planUptimeKuma (a JSON backup)', () => {
    const plan = planUptimeKuma(fixture('uptime-kuma-backup.json'));
    const draft = (slug: string) => plan.drafts.find((d) => d.slug === slug)!;

    it('maps an http monitor to UPTIME_HTTP: interval, retries as failures in a row, any 2xx, redirects, TLS', () => {
      expect(draft('homepage').body).to.deep.equal({
        name: 'Homepage', description: '', tags: ['prod'], slug: 'homepage', type: 'UPTIME_HTTP', schedule: '1m', failure_tolerance: 3,
        uptime_url: 'https://www.shop.example/', uptime_method: 'GET', uptime_expected_status: [], uptime_headers: {}, uptime_timeout_ms: 30000,
        uptime_follow_redirects: true, uptime_verify_ssl: true,
      });
      expect(draft('homepage').notes).to.deep.equal(['notifications not imported: attach Vigil notification channels', 'timeout 48s kept as 30s (Vigil takes 1 to 30s)']);
    });

    it('maps a keyword monitor with its method, body, headers, basic auth and accepted codes', () => {
      expect(draft('api-health').body).to.deep.include({
        uptime_method: 'POST',
        uptime_keyword: '"status":"ok"',
        uptime_keyword_absent: false,
        uptime_request_body: '{"deep": true}',
        uptime_follow_redirects: false,
        uptime_verify_ssl: false,
      });
      expect(draft('api-health').body['uptime_headers']).to.deep.equal({ 'X-Probe': 'vigil-import', Authorization: `Basic ${Buffer.from('probe:s3cret').toString('base64')}`, 'Content-Type': 'application/json' });
      expect(draft('api-health').body['uptime_expected_status']).to.deep.equal([200, 201, 202, 203, 204, 205, 206, 207, 208, 226, 418]);
    });

    it('maps a push monitor to JOB_HEARTBEAT on its interval, its retries as grace', () => {
      expect(draft('nightly-backup').body).to.deep.include({ type: 'JOB_HEARTBEAT', schedule: '1d', grace_period_seconds: 1800 });
    });

    it('keeps an inactive monitor paused and gives a second monitor of the same name the next slug, in file order', () => {
      expect(draft('checkout').paused).to.equal(true);
      expect(draft('checkout').notes).to.include('accepted status codes 200-399 kept as the 18 registered codes they cover');
      expect(draft('homepage-2').body).to.deep.include({ name: 'Homepage', uptime_url: 'https://www2.shop.example/', schedule: '2m' });
    });

    it('maps a port monitor to UPTIME_TCP on its host and port', () => {
      expect(draft('database-port').body).to.deep.equal({
        name: 'Database port', description: '', tags: [], slug: 'database-port', type: 'UPTIME_TCP', schedule: '1m', failure_tolerance: 1, tcp_host: 'db.shop.example', tcp_port: 5432,
      });
      expect(draft('database-port').notes).to.deep.equal([]);
    });

    it('maps a dns monitor to UPTIME_DNS with its record type, and its resolver on its port', () => {
      expect(draft('shop-mx').body).to.deep.equal({
        name: 'Shop MX', description: '', tags: [], slug: 'shop-mx', type: 'UPTIME_DNS', schedule: '5m', failure_tolerance: 2,
        dns_hostname: 'shop.example', dns_record_type: 'MX', dns_expected: [], dns_match: 'any', dns_resolver: '9.9.9.9:5353',
      });
    });

    it('maps the record conditions of a Kuma 2 dns monitor to dns_expected, and reports others', () => {
      const dns = (conditions: unknown) => ({ monitorList: [{ name: 'Mail', type: 'dns', hostname: 'shop.example', dns_resolve_type: 'MX', dns_resolve_server: '2620:fe::fe', port: 5353, conditions }] });
      const mapped = planUptimeKuma(dns(JSON.stringify([{ type: 'expression', variable: 'record', operator: 'contains', value: 'mail.shop.example' }])));
      expect(mapped.drafts[0]!.body).to.deep.include({ dns_expected: ['mail.shop.example'], dns_resolver: '[2620:fe::fe]:5353' });
      const other = planUptimeKuma(dns([{ type: 'expression', variable: 'record', operator: 'starts_with', value: 'mail' }]));
      expect(other.unmapped[0]!.reason).to.match(/^DNS condition .* has no Vigil equivalent/);
    });

    it('maps a json-query monitor to UPTIME_HTTP with its dotted path as the JMESPath query and its expected value', () => {
      expect(draft('payments-status').body).to.deep.include({
        type: 'UPTIME_HTTP', schedule: '2m', failure_tolerance: 2, uptime_url: 'https://pay.shop.example/status', uptime_timeout_ms: 10000, uptime_headers: { Accept: 'application/json' },
        uptime_json_query: 'checks[0].status', uptime_json_operator: 'equals', uptime_json_expected: 'ok',
      });
      const operator = planUptimeKuma({ monitorList: [{ name: 'Depth', type: 'json-query', url: 'https://q.example/', jsonPath: 'depth', jsonPathOperator: '<', expectedValue: '10' }] });
      expect(operator.drafts[0]!.body).to.deep.include({ uptime_json_query: 'depth', uptime_json_operator: 'less_than', uptime_json_expected: '10' });
      const atLeast = planUptimeKuma({ monitorList: [{ name: 'Depth', type: 'json-query', url: 'https://q.example/', jsonPath: 'depth', jsonPathOperator: '>=', expectedValue: '10' }] });
      expect(atLeast.unmapped).to.deep.equal([{ source: 'Depth', reason: 'JSON query operator >= is not supported (==, !=, contains, > and < are)' }]);
    });

    it('says which Kuma group a monitor was in: a group is not a dependency', () => {
      expect(draft('checkout').notes).to.include('Kuma group "Shop" not imported (Vigil has no groups; set depends_on by hand if this monitor needs another to be up)');
    });

    it('reports the types and settings Vigil has no equivalent for', () => {
      expect(plan.unmapped).to.deep.equal([
        { source: 'Gateway ping', reason: 'type ping is not supported: Vigil imports http, keyword, json-query, port, dns and push monitors' },
        { source: 'Inverted', reason: 'upside-down mode (up when the check fails) has no Vigil equivalent' },
        { source: 'Delete probe', reason: 'method DELETE is not supported (GET, HEAD and POST are)' },
        { source: 'Shop', reason: 'a group only holds other monitors; its members are imported on their own' },
        { source: 'Shop CAA', reason: 'DNS record type CAA is not supported (A, AAAA, CNAME, MX, TXT are)' },
        {
          source: 'Queue depth',
          reason: 'JSON query "$sum(queues.depth)" is a JSONata expression Vigil cannot run: it takes a JMESPath expression, and only dotted paths read the same in both',
        },
      ]);
    });

    it('refuses a file that is not a backup', () => {
      expect(() => planUptimeKuma({ checks: [] })).to.throw(ImportFileError, /Uptime Kuma JSON backup/);
    });
  });
});
