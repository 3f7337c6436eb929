import { expect } from 'chai';
import { copyFileSync, rmSync } from 'node:fs';
import { openSqliteDatabase } from '../../src/eventstore/sqlite-database.js';
import { runCli } from '../../src/main/cli.js';
import { makeTempDir } from '../support/temp-dir.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

describe('vigil verify', function () {
  this.timeout(30_000);
  let original: string;
  const dirs: ReturnType<typeof makeTempDir>[] = [];

  before(async () => {
    const vigil = await TestVigil.start();
    const key = await vigil.accountKey(await vigil.user('auditor@example.com'), ALL_SCOPES);
    const projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Jobs' } })).body.project.id;
    const monitor = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Backup', type: 'JOB_BASIC', schedule: 'x', retention_count: 10 } })).body.monitor;
    for (let i = 0; i < 15; i++) await vigil.request('GET', `/v1/ping/${monitor.id}/${i % 5 === 0 ? 'fail' : 'success'}`);
    const doomed = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Doomed', type: 'JOB_BASIC', schedule: 'x' } })).body.monitor;
    await vigil.request('GET', `/v1/ping/${doomed.id}`);
    await vigil.request('DELETE', `/v1/monitors/${doomed.id}`, { key });
    await vigil.settle();
    await vigil.stopKeepingData();
    original = `${vigil.dataDir}/vigil.db`;
    dirs.push({ path: vigil.dataDir, remove: () => rmSync(vigil.dataDir, { recursive: true, force: true }) });
  });
  after(() => dirs.forEach((d) => d.remove()));

  /** A copy of the store to tamper with, and a verify run against it. */
  async function verifyCopy(tamper: (db: ReturnType<typeof openSqliteDatabase>) => void = () => undefined) {
    const dir = makeTempDir('vigil-verify');
    dirs.push(dir);
    copyFileSync(original, `${dir.path}/vigil.db`);
    copyFileSync(`${original.replace(/vigil\.db$/, 'secret.key')}`, `${dir.path}/secret.key`);
    const db = openSqliteDatabase(`${dir.path}/vigil.db`);
    tamper(db);
    db.close();
    const out: string[] = [];
    const code = await runCli(['verify'], { env: { VIGIL_DATA_DIR: dir.path }, stdout: (text) => out.push(text), stderr: process.stderr });
    return { code, report: JSON.parse(out[0]!) };
  }
  const eventAt = (db: ReturnType<typeof openSqliteDatabase>, type: string) =>
    db.prepare<[string], { position: number }>('SELECT position FROM es_events WHERE type = ? AND removed = 0 ORDER BY position LIMIT 1').get(type)!.position;

  it('passes on a clean store, retention and deletion included, and reports the head of the chain', async () => {
    const { code, report } = await verifyCopy();
    expect(code).to.equal(0);
    expect(report.ok).to.equal(true);
    expect(report.log.events_checked).to.be.greaterThan(20);
    expect(report.log.head_chain).to.match(/^[0-9a-f]{64}$/);
    expect(report.read_models).to.include({ ok: true });
    expect(report.read_models.documents_compared).to.be.greaterThan(5);
  });

  it('catches one edited byte in one event', async () => {
    let position = 0;
    const { code, report } = await verifyCopy((db) => {
      position = eventAt(db, 'ProjectCreated');
      db.prepare("UPDATE es_events SET data = replace(data, '\"Jobs\"', '\"Jobz\"') WHERE position = ?").run(position);
    });
    expect(code).to.equal(1);
    expect(report.log.first_break).to.deep.equal({ position, reason: report.log.first_break.reason });
    expect(report.log.first_break.reason).to.match(/does not match its hash: it was edited/);
  });

  it('catches a deleted event', async () => {
    let position = 0;
    const { report } = await verifyCopy((db) => {
      position = eventAt(db, 'MonitorCreated');
      db.prepare('DELETE FROM es_events WHERE position = ?').run(position);
    });
    expect(report.ok).to.equal(false);
    expect(report.log.first_break).to.deep.equal({ position, reason: `the event at position ${position} is missing` });
  });

  it('catches an event blanked outside any retention window, as retention or deletion would have blanked it', async () => {
    let position = 0;
    const { code, report } = await verifyCopy((db) => {
      // Content gone the way retention removes it, on an event no retention window or deletion reached.
      position = eventAt(db, 'ProjectCreated');
      db.prepare('UPDATE es_events SET data = NULL, metadata = NULL, removed = 1 WHERE position = ?').run(position);
    });
    expect(code).to.equal(1);
    expect(report.log.first_break.position).to.equal(position);
    expect(report.log.first_break.reason).to.match(/removed, though no retention window or deletion reached it/);
  });

  it('catches a blanking passed off as retention by widening the window outside the log', async () => {
    const { report } = await verifyCopy((db) => {
      // The stream's max count kept beside the log says 1: only the hashed record of it counts.
      db.prepare("UPDATE es_streams SET max_count = 1 WHERE stream LIKE 'pings-%'").run();
      const { position } = db.prepare<[], { position: number }>("SELECT position FROM es_events WHERE stream LIKE 'pings-%' AND removed = 0 ORDER BY position LIMIT 1").get()!;
      db.prepare('UPDATE es_events SET data = NULL, metadata = NULL, removed = 1 WHERE position = ?').run(position);
    });
    expect(report.ok).to.equal(false);
    expect(report.log.first_break.reason).to.match(/no retention window or deletion reached it/);
  });

  it('catches two events swapped in order', async () => {
    const { report } = await verifyCopy((db) => {
      const [a, b] = db.prepare<[], { position: number }>("SELECT position FROM es_events WHERE stream LIKE 'pings-%' AND removed = 0 ORDER BY position DESC LIMIT 2").all();
      db.prepare('UPDATE es_events SET position = -1 WHERE position = ?').run(a!.position);
      db.prepare('UPDATE es_events SET position = ? WHERE position = ?').run(a!.position, b!.position);
      db.prepare('UPDATE es_events SET position = ? WHERE position = -1').run(b!.position);
    });
    expect(report.ok).to.equal(false);
    expect(report.log.first_break.reason).to.match(/out of order/);
  });

  it('catches an edited hash, through the running hash', async () => {
    const { report } = await verifyCopy((db) => {
      const position = eventAt(db, 'ProjectCreated');
      db.prepare("UPDATE es_events SET data = replace(data, '\"Jobs\"', '\"Jobz\"') WHERE position = ?").run(position);
      // A forger who also changes the event's hash is still given away by the running hash.
      db.prepare("UPDATE es_events SET hash = 'f' || substr(hash, 2) WHERE position = ?").run(position);
    });
    expect(report.ok).to.equal(false);
    expect(report.log.first_break.reason).to.match(/edited|running hash/);
  });

  it('catches a read-model document that differs from a replay of the log', async () => {
    const { code, report } = await verifyCopy((db) => {
      db.prepare("UPDATE rm_monitors SET doc = json_set(doc, '$.name', 'Tampered')").run();
    });
    expect(code).to.equal(1);
    expect(report.log.ok).to.equal(true);
    expect(report.read_models.ok).to.equal(false);
    expect(report.read_models.differences[0]).to.include({ collection: 'monitors', problem: 'differs from the replay' });
  });
});
