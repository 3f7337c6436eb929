import { expect } from 'chai';
import { runCliCaptured } from '../support/cli-run.js';
import { reply, startTarget } from '../support/http-targets.js';
import { freePort } from '../support/server-process.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runCliCaptured(args, env);

describe('vigil ping', () => {
  let vigil: TestVigil;
  let key: string;
  let project: { id: string; ping_key: string };
  before(async () => {
    vigil = await TestVigil.start();
    key = await vigil.accountKey(await vigil.user('ping-cli@example.com'), ALL_SCOPES);
    project = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Ping CLI' } })).body.project;
  });
  after(() => vigil.stop());

  async function monitor(body: Record<string, unknown> = {}) {
    const created = await vigil.request('POST', '/v1/monitors', {
      key,
      body: { project_id: project.id, name: 'Job', type: 'JOB_HEARTBEAT', schedule: '1h', ...body },
    });
    return created.body.monitor as { id: string; slug: string };
  }
  async function newestPing(monitorId: string) {
    return (await vigil.request('GET', `/v1/monitors/${monitorId}/pings?limit=1`, { key })).body.data[0];
  }

  it('sends a SUCCESS ping by default and prints the answer as JSON', async () => {
    const m = await monitor();
    const run = await cli(['ping', m.id, '--url', vigil.url]);
    expect(run.code).to.equal(0);
    expect(run.stderr).to.equal('');
    expect(run.stdout).to.have.length(1);
    const answer = JSON.parse(run.stdout[0]!);
    expect(answer).to.include({ ok: true, monitor_id: m.id, event: 'SUCCESS' });
    expect((await newestPing(m.id)).id).to.equal(answer.ping_id);
  });

  it('sends the kind, run id, message and exit code it is given', async () => {
    const m = await monitor();
    expect((await cli(['ping', m.id, 'start', '--run-id', 'r-7', '--message', 'nightly run'], { VIGIL_URL: vigil.url })).code).to.equal(0);
    expect(await newestPing(m.id)).to.include({ event: 'START', run_id: 'r-7', message: 'nightly run' });
    expect((await cli(['ping', m.id, 'fail', '--run-id', 'r-7', '--exit-code', '2'], { VIGIL_URL: vigil.url })).code).to.equal(0);
    expect(await newestPing(m.id)).to.include({ event: 'FAILURE', run_id: 'r-7', exit_code: 2 });
    expect((await cli(['ping', m.id, 'log', '--message', 'halfway'], { VIGIL_URL: vigil.url })).code).to.equal(0);
    expect(await newestPing(m.id)).to.include({ event: 'LOG', message: 'halfway' });
  });

  it('finds the monitor by slug with --ping-key or VIGIL_PING_KEY', async () => {
    const m = await monitor({ name: 'Slugged', slug: 'ping-cli-slug' });
    const withFlag = await cli(['ping', '--slug', 'ping-cli-slug', '--ping-key', project.ping_key, 'start', '--url', vigil.url]);
    expect(JSON.parse(withFlag.stdout[0]!)).to.include({ monitor_id: m.id, event: 'START' });
    const fromEnv = await cli(['ping', '--slug', 'ping-cli-slug'], { VIGIL_URL: vigil.url, VIGIL_PING_KEY: project.ping_key });
    expect(JSON.parse(fromEnv.stdout[0]!)).to.include({ monitor_id: m.id, event: 'SUCCESS' });
  });

  it('exits 1 with Vigil’s error on stderr and nothing on stdout when the ping is refused for a reason other than a missing monitor', async () => {
    const target = await startTarget(reply(400, '{"error":"run_id must be at most 64 characters"}'));
    try {
      expect(await cli(['ping', 'm1', '--url', target.url])).to.deep.equal({ code: 1, stdout: [], stderr: 'vigil: ping failed: 400 run_id must be at most 64 characters\n' });
    } finally {
      await target.close();
    }
  });

  it('exits 1 saying, over lines naming the monitor and the server, that Vigil has no such monitor', async () => {
    const unknown = '6f0b0a57-1d7c-4b36-9f1a-2a6a1b0f9a00';
    const run = await cli(['ping', unknown, '--url', vigil.url]);
    expect(run).to.deep.equal({
      code: 1,
      stdout: [],
      stderr:
        `vigil ping: Vigil at ${vigil.url} has no monitor ${unknown} (404 monitor not found).\n` +
        'vigil ping: check the monitor id, and that --url or VIGIL_URL is the Vigil that has it.\n',
    });
    const wrongKey = await cli(['ping', '--slug', 'ping-cli-slug', '--ping-key', 'not-the-key', '--url', vigil.url]);
    expect(wrongKey.code).to.equal(1);
    expect(wrongKey.stderr).to.equal(
      `vigil ping: Vigil at ${vigil.url} has no monitor with the slug ping-cli-slug in the project of that ping key (404 monitor not found).\n` +
        'vigil ping: check the --slug and --ping-key (or VIGIL_PING_KEY), and that --url or VIGIL_URL is the Vigil that has it.\n',
    );
  });

  it('exits 1 when Vigil is unreachable', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const run = await cli(['ping', 'm1', '--url', closed]);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.equal(`vigil: ping failed: ${closed} unreachable (ECONNREFUSED)\n`);
  });

  it('keeps the path of a base URL, for a Vigil behind a proxy at a prefix', async () => {
    const proxy = await startTarget(reply(200, '{"ok":true}'));
    try {
      expect((await cli(['ping', 'm1', 'start', '--url', `${proxy.url}/vigil/`, '--run-id', 'a b'])).code).to.equal(0);
      expect(proxy.seen.map((r) => r.url)).to.deep.equal(['/vigil/v1/ping/m1/start?run_id=a+b']);
    } finally {
      await proxy.close();
    }
  });

  it('exits 2 with the usage for a missing monitor, an unknown kind or a bad exit code', async () => {
    for (const [args, message] of [
      [['ping'], /which monitor\?/],
      [['ping', 'm1', 'finish'], /the ping kind is start, success, fail or log, not finish/],
      [['ping', 'm1', 'fail', '--exit-code', 'x'], /--exit-code must be a whole number from 0 to 255, not x/],
      [['ping', 'm1', 'fail', '--exit-code', '999'], /--exit-code must be a whole number from 0 to 255, not 999/],
      [['ping', 'm1', 'start', 'extra'], /unexpected argument extra/],
    ] as const) {
      const run = await cli([...args], { VIGIL_URL: vigil.url });
      expect(run.code, args.join(' ')).to.equal(2);
      expect(run.stderr, args.join(' ')).to.match(message);
      expect(run.stderr).to.include('usage:\n  vigil ping');
    }
  });
});

describe('vigil --help', () => {
  it('prints every command on stdout and exits 0, as help and -h do; an unknown command is a usage error', async () => {
    for (const flag of ['--help', 'help', '-h']) {
      const run = await cli([flag]);
      expect(run.code, flag).to.equal(0);
      expect(run.stdout.join('\n'), flag).to.match(/^usage:\n {2}vigil bootstrap --email E/);
      for (const line of ['vigil users create', '[--print FIELD]', 'vigil exec', 'VIGIL_API_KEY=']) expect(run.stdout.join('\n'), flag).to.include(line);
    }
    const unknown = await cli(['frobnicate']);
    expect(unknown.code).to.equal(2);
    expect(unknown.stderr).to.match(/^vigil: unknown command: frobnicate\nusage:/);
  });
});
