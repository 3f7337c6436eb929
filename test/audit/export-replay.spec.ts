import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { runCli } from '../../src/main/cli.js';
import { makeTempDir } from '../support/temp-dir.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

describe('vigil events export and vigil replay', function () {
  this.timeout(30_000);

  it('exports a project as NDJSON in a stable format, and a replay of it finds the same incident states', async () => {
    const vigil = await TestVigil.start();
    const key = await vigil.accountKey(await vigil.user('export@example.com'), ALL_SCOPES);
    const projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Exported' } })).body.project.id;
    const otherProject = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Not exported' } })).body.project.id;
    const job = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Job', type: 'JOB_BASIC', schedule: 'x', alert_enabled: false } })).body.monitor;
    const beat = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Beat', type: 'JOB_HEARTBEAT', schedule: '1h', alert_enabled: false } })).body.monitor;
    const other = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: otherProject, name: 'Other', type: 'JOB_BASIC', schedule: 'x' } })).body.monitor;
    // Deadlines count from a monitor's first ping.
    await vigil.request('GET', `/v1/ping/${beat.id}`);
    await vigil.request('GET', `/v1/ping/${job.id}/fail`);
    await vigil.request('GET', `/v1/ping/${job.id}`);
    await vigil.request('GET', `/v1/ping/${job.id}/3`);
    await vigil.request('GET', `/v1/ping/${other.id}/fail`);
    vigil.clock.advance(2 * 3600_000);
    await vigil.tick();
    const live = (await vigil.request('GET', `/v1/incidents?project_id=${projectId}`, { key })).body.data;
    const acknowledged = live.find((i: { event: string }) => i.event === 'MISSED');
    await vigil.request('POST', `/v1/incidents/${acknowledged.id}/acknowledge`, { key });
    await vigil.settle();
    const expected = (await vigil.request('GET', `/v1/incidents?project_id=${projectId}`, { key })).body.data
      .map((i: Record<string, unknown>) => ({ id: i['id'], monitor_id: i['monitor_id'], event: i['event'], status: i['status'], started_at: i['started_at'], acknowledged_at: i['acknowledged_at'], resolved_at: i['resolved_at'] }))
      .sort((a: { started_at: string; id: string }, b: { started_at: string; id: string }) => (a.started_at + a.id).localeCompare(b.started_at + b.id));
    expect(expected.map((i: { status: string }) => i.status).sort()).to.deep.equal(['ACKNOWLEDGED', 'OPEN', 'RESOLVED']);
    await vigil.stopKeepingData();

    const lines: string[] = [];
    const quiet = new PassThrough().resume();
    expect(await runCli(['events', 'export', '--project', projectId], { env: vigil.env, stdout: (text) => lines.push(text), stderr: quiet })).to.equal(0);
    const exported = lines.map((line) => JSON.parse(line));
    expect(exported.length).to.be.greaterThan(10);
    for (const event of exported) {
      expect(Object.keys(event)).to.deep.equal(['position', 'stream', 'revision', 'id', 'type', 'created', 'data', 'metadata']);
      expect(event.data.project_id).to.equal(projectId);
    }
    expect(exported.map((e) => e.stream)).to.not.include(`monitor-${other.id}`);
    const positions = exported.map((e) => e.position);
    expect([...positions].sort((a, b) => a - b)).to.deep.equal(positions);

    const dir = makeTempDir('vigil-export');
    writeFileSync(`${dir.path}/export.ndjson`, lines.join('\n') + '\n');
    const out: string[] = [];
    expect(await runCli(['replay', `${dir.path}/export.ndjson`], { env: {}, stdout: (text) => out.push(text), stderr: quiet })).to.equal(0);
    const replayed = JSON.parse(out[0]!);
    expect(replayed.events).to.equal(exported.length);
    const found = [...replayed.incidents].sort((a: { started_at: string; id: string }, b: { started_at: string; id: string }) => (a.started_at + a.id).localeCompare(b.started_at + b.id));
    expect(found).to.deep.equal(expected);
    expect(replayed.summary).to.deep.equal({ open: 1, acknowledged: 1, resolved: 1 });

    const windowed: string[] = [];
    await runCli(['events', 'export', '--project', projectId, '--to', '2000-01-01T00:00:00Z'], { env: vigil.env, stdout: (text) => windowed.push(text), stderr: quiet });
    expect(windowed).to.deep.equal([]);
    dir.remove();
    await (await TestVigil.reopen(vigil.dataDir, vigil.env, vigil.clock)).stop();
  });

  it('says what is wrong, without a stack trace, for a file that is not there or not an export, and a data dir that is a file', async () => {
    const dir = makeTempDir('vigil-replay-errors');
    const run = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
      const stderr = new PassThrough();
      const said: Buffer[] = [];
      stderr.on('data', (chunk: Buffer) => said.push(chunk));
      const code = await runCli(args, { env, stdout: () => {}, stderr });
      return { code, said: Buffer.concat(said).toString('utf8') };
    };
    try {
      writeFileSync(`${dir.path}/bad.ndjson`, '{"stream":"x"}\nnot json\n');
      writeFileSync(`${dir.path}/a-file`, 'x');
      const outcomes = [
        await run(['replay', `${dir.path}/missing.ndjson`]),
        await run(['replay', `${dir.path}/bad.ndjson`]),
        await run(['users', 'create', '--email', 'a@example.com'], { VIGIL_DATA_DIR: `${dir.path}/a-file` }),
      ];
      expect(outcomes.map((o) => o.code)).to.deep.equal([1, 1, 1]);
      expect(outcomes[0]!.said).to.match(/^vigil: ENOENT: no such file or directory, open '.*missing\.ndjson'\n$/);
      expect(outcomes[1]!.said).to.match(/^vigil: line 2 of .*bad\.ndjson is not JSON/);
      expect(outcomes[2]!.said).to.match(/^vigil: E[A-Z]+: .*a-file/);
      for (const outcome of outcomes) expect(outcome.said).to.not.match(/\n\s+at /);
    } finally {
      dir.remove();
    }
  });
});
