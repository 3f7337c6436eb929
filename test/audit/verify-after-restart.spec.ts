import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { runCli } from '../../src/main/cli.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../support/test-vigil.js';

/** `vigil verify` on a stopped server's data dir: the log and every read model against a replay. */
async function verify(dataDir: string): Promise<{ code: number; report: any }> {
  const out: string[] = [];
  const code = await runCli(['verify'], { env: { VIGIL_DATA_DIR: dataDir }, stdout: (text) => out.push(text), stderr: process.stderr });
  return { code, report: JSON.parse(out[0]!) };
}

describe('vigil verify after restarts', function () {
  this.timeout(60_000);

  it('passes after missed slots are caught up in one batch, more of them than retention keeps, across a restart and a clock jump', async () => {
    const clock = new TestClock();
    let vigil = await TestVigil.start({ clock });
    const key = await vigil.accountKey(await vigil.user('auditor@example.com'), ALL_SCOPES);
    const projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Jobs' } })).body.project.id;
    const monitor = (
      await vigil.request('POST', '/v1/monitors', {
        key,
        body: { project_id: projectId, name: 'Every second', type: 'JOB_HEARTBEAT', schedule: '1s', grace_period_seconds: 0, retention_count: 10 },
      })
    ).body.monitor;
    expect((await vigil.request('GET', `/v1/ping/${monitor.id}`)).status).to.equal(200);
    await vigil.tick();
    clock.advance(45_000);
    await vigil.stopKeepingData();

    vigil = await TestVigil.reopen(vigil.dataDir, vigil.env, clock);
    await vigil.tick();
    // The wall clock stepped forward while it ran.
    clock.advance(120_000);
    await vigil.tick();
    await vigil.stopKeepingData();

    const { code, report } = await verify(vigil.dataDir);
    expect(report.read_models.differences).to.deep.equal([]);
    expect(report.log).to.include({ ok: true });
    expect(code).to.equal(0);
    rmSync(vigil.dataDir, { recursive: true, force: true });
  });
});
