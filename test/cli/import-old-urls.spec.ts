import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { runCliCaptured } from '../support/cli-run.js';
import { curl } from '../support/curl.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../support/test-vigil.js';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/import/${name}`, import.meta.url));

/** After `vigil import`, a job keeps its old ping URL with only the host changed. */
describe('vigil import › the old ping URLs', function () {
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

  async function imported(source: string, file: string): Promise<Record<string, string>> {
    const run = await runCliCaptured(['import', source, fixture(file), '--project', projectId, '--json'], vigil.env);
    expect(run.code, run.stderr).to.equal(0);
    await vigil.settle();
    const report = JSON.parse(run.stdout.join('\n')) as { created: { slug: string; id: string }[] };
    return Object.fromEntries(report.created.map((c) => [c.slug, c.id]));
  }
  const history = async (monitorId: string) => (await vigil.request('GET', `/v1/monitors/${monitorId}/pings?limit=100`, { key })).body.data as Record<string, unknown>[];

  it('healthchecks: each imported check answers at its old UUID, and at its Vigil id', async () => {
    const ids = await imported('healthchecks', 'healthchecks-checks.json');
    const oldUuid = '31365bce-8da9-4729-8ff3-aaa71d56b712';
    // The crontab line of Healthchecks' docs, the host changed.
    const answer = await curl(['-fsS', '-m', '10', '--retry', '5', '--data-raw', 'backup done', `${vigil.url}/ping/${oldUuid}`]);
    expect(answer).to.deep.include({ status: 200, body: 'OK' });
    expect((await curl(['-fsS', `${vigil.url}/ping/${oldUuid.toUpperCase()}/start`])).body).to.equal('OK');
    expect((await curl([`${vigil.url}/ping/${ids['backups']}/fail`])).body).to.equal('OK');
    expect((await history(ids['backups']!)).map((p) => [p['event'], p['payload']])).to.deep.equal([
      ['FAILURE', null],
      ['START', null],
      ['SUCCESS', 'backup done'],
    ]);
    // Stored as a hash, never as the UUID itself.
    const claims = (await vigil.vigil.stores.events.readAll()).filter((e) => e.type === 'PeerAliasClaimed');
    expect(claims.length).to.be.greaterThan(0);
    expect(JSON.stringify(claims)).to.not.include(oldUuid);
    expect(claims.every((e) => e.streamName.startsWith('peeralias-healthchecks-'))).to.equal(true);
  });

  it('uptime-kuma: an imported push monitor answers at its old pushToken, and at its Vigil id', async () => {
    const ids = await imported('uptime-kuma', 'uptime-kuma-backup.json');
    const pushed = Object.entries(ids);
    const answer = await curl([`${vigil.url}/api/push/Xk3PqZ9wLm?status=down&msg=backup%20failed&ping=`]);
    expect(answer.status, answer.body).to.equal(200);
    expect(JSON.parse(answer.body)).to.deep.equal({ ok: true });
    // A push token is case-sensitive, as in Kuma.
    expect((await curl([`${vigil.url}/api/push/xk3pqz9wlm?status=up`])).status).to.equal(404);
    const target = (await Promise.all(pushed.map(async ([slug, id]) => [slug, await history(id)] as const))).filter(([, pings]) => pings.length > 0);
    expect(target.length, 'exactly one monitor got the push').to.equal(1);
    const [slug, pings] = target[0]!;
    expect(pings[0]).to.include({ event: 'FAILURE', message: 'backup failed' });
    expect(JSON.parse((await curl([`${vigil.url}/api/push/${ids[slug]}?status=up`])).body)).to.deep.equal({ ok: true });
  });

  it('a second import of the same file creates nothing and leaves the old URLs where they were', async () => {
    const ids = await imported('healthchecks', 'healthchecks-checks.json');
    const again = await runCliCaptured(['import', 'healthchecks', fixture('healthchecks-checks.json'), '--project', projectId, '--json'], vigil.env);
    expect(again.code).to.equal(0);
    expect((await curl([`${vigil.url}/ping/31365bce-8da9-4729-8ff3-aaa71d56b712`])).body).to.equal('OK');
    expect(await history(ids['backups']!)).to.have.length(1);
  });
});
