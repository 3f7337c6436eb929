import { expect } from 'chai';
import { runCliCaptured } from '../support/cli-run.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

describe('vigil maintenance', () => {
  let vigil: TestVigil;
  let key: string;
  let projectId: string;
  let env: NodeJS.ProcessEnv;
  const cli = (args: string[], extra: NodeJS.ProcessEnv = {}) => runCliCaptured(['maintenance', ...args], { ...env, ...extra });

  before(async () => {
    vigil = await TestVigil.start();
    key = await vigil.accountKey(await vigil.user('deploy@example.com'), ALL_SCOPES);
    projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Deploys' } })).body.project.id;
    env = { VIGIL_URL: vigil.url, VIGIL_API_KEY: key };
  });
  after(() => vigil.stop());

  async function monitor(name: string, slug: string): Promise<string> {
    const created = await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name, slug, type: 'JOB_BASIC', schedule: 'x' } });
    return created.body.monitor.id;
  }

  it('starts a window now for the monitors named by id or slug, printing its id alone, and ends it', async () => {
    const api = await monitor('API', 'api');
    const worker = await monitor('Worker', 'worker');
    const started = await cli(['start', '--monitor', api, '--monitor', 'worker', '--for', '30m', '--name', 'deploy 4.2']);
    expect(started.stderr).to.equal('');
    expect(started.code).to.equal(0);
    expect(started.stdout).to.have.length(1);
    const windowId = started.stdout[0]!;
    const window = (await vigil.request('GET', `/v1/maintenance-windows/${windowId}`, { key })).body.maintenance_window;
    expect(window).to.deep.include({ name: 'deploy 4.2', monitor_ids: [api, worker], active_now: true, starts_at: '2026-11-21T12:00:00Z', ends_at: '2026-11-21T12:30:00Z' });

    const ended = await cli(['end', windowId]);
    expect(ended.code).to.equal(0);
    expect(JSON.parse(ended.stdout[0]!)).to.include({ id: windowId, status: 'over', active_now: false });
  });

  it('covers the whole project with --project alone, and lists the project\'s windows', async () => {
    const started = await cli(['start', '--project', projectId, '--for', '1h']);
    expect(started.code, started.stderr).to.equal(0);
    const listed = await cli(['list', '--project', projectId]);
    expect(listed.code).to.equal(0);
    const windows = JSON.parse(listed.stdout[0]!).maintenance_windows as { id: string; monitor_ids: string[] | null; name: string }[];
    expect(windows.find((w) => w.id === started.stdout[0])).to.include({ monitor_ids: null, name: 'Maintenance' });
  });

  it('exits 2 with its usage for a missing --for or monitor, and 1 with the server\'s refusal', async () => {
    const noFor = await cli(['start', '--project', projectId]);
    expect(noFor.code).to.equal(2);
    expect(noFor.stderr).to.match(/--for is how long/);
    expect((await cli(['start', '--for', '30m'])).code).to.equal(2);
    expect((await cli(['start', '--project', projectId, '--for', '30m'], { VIGIL_API_KEY: '' })).stderr).to.match(/VIGIL_API_KEY/);
    const unknownSlug = await cli(['start', '--project', projectId, '--monitor', 'nope', '--for', '30m']);
    expect(unknownSlug.code).to.equal(1);
    expect(unknownSlug.stderr).to.match(/no monitor with slug nope/);
    const tooLong = await cli(['start', '--project', projectId, '--for', '100d']);
    expect(tooLong.code).to.equal(1);
    expect(tooLong.stderr).to.match(/answered 400: .*duration_seconds/);
    expect(tooLong.stdout).to.deep.equal([]);
  });
});
