import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { PassThrough, Writable } from 'node:stream';
import { runExec } from '../../src/cli/exec.js';
import { freePort } from '../support/server-process.js';
import { reply, startTarget } from '../support/http-targets.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

/** A job as a real child process, portable wherever the tests run. */
const node = (script: string) => [process.execPath, '-e', script];

const QUICK_RETRIES = { retryDelaysMs: [20, 20], requestTimeoutMs: 2000 };

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  elapsedMs: number;
}

async function exec(args: string[], env: NodeJS.ProcessEnv = {}, delivery = QUICK_RETRIES): Promise<Run> {
  const stdout = collect();
  const stderr = collect();
  const started = Date.now();
  const code = await runExec(args, { env: { ...env }, stdout: stdout.stream, stderr: stderr.stream, stdin: 'ignore', delivery, killGraceMs: 300 });
  return { code, stdout: stdout.text(), stderr: stderr.text(), elapsedMs: Date.now() - started };
}

function collect() {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

describe('vigil exec', () => {
  let vigil: TestVigil;
  let key: string;
  let project: { id: string; ping_key: string };
  before(async () => {
    vigil = await TestVigil.start();
    key = await vigil.accountKey(await vigil.user('exec@example.com'), ALL_SCOPES);
    project = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Exec' } })).body.project;
  });
  after(() => vigil.stop());

  async function monitor(body: Record<string, unknown> = {}) {
    const created = await vigil.request('POST', '/v1/monitors', {
      key,
      body: { project_id: project.id, name: 'Nightly', type: 'JOB_HEARTBEAT', schedule: '1h', ...body },
    });
    expect(created.status).to.equal(201);
    return created.body.monitor as { id: string; slug: string };
  }
  /** Oldest first, with each ping's whole payload. */
  async function pings(monitorId: string): Promise<Record<string, any>[]> {
    const newestFirst = (await vigil.request('GET', `/v1/monitors/${monitorId}/pings?limit=100`, { key })).body.data as Record<string, any>[];
    const whole = [];
    for (const ping of newestFirst.reverse()) {
      whole.push((await vigil.request('GET', `/v1/monitors/${monitorId}/pings/${ping['id']}`, { key })).body.ping);
    }
    return whole;
  }
  async function monitorNow(monitorId: string) {
    await vigil.settle();
    return (await vigil.request('GET', `/v1/monitors/${monitorId}`, { key })).body.monitor;
  }

  describe('when the job succeeds', () => {
    it('sends START, runs the job with its stdout passed through, then SUCCESS with the same run_id, exit code 0 and the duration', async () => {
      const m = await monitor();
      const run = await exec(['--monitor', m.id, '--url', vigil.url, '--', ...node('setTimeout(() => console.log("backed up 42 files"), 150)')]);

      expect(run.code).to.equal(0);
      expect(run.stdout).to.equal('backed up 42 files\n');
      expect(run.stderr).to.equal('');
      const [start, success, ...others] = await pings(m.id);
      expect(others).to.deep.equal([]);
      expect(start).to.include({ event: 'START', exit_code: null });
      expect(start!['run_id']).to.match(/^[0-9a-f-]{36}$/);
      expect(success).to.include({ event: 'SUCCESS', exit_code: 0, run_id: start!['run_id'], payload: 'backed up 42 files\n' });
      expect(success!['duration_ms']).to.be.within(150, 10_000);
      expect(await monitorNow(m.id)).to.include({ status: 'UP', consecutive_failures: 0 });
    });

    it('gives the job its run id in VIGIL_RUN_ID, so it can send LOG pings into the same run', async () => {
      const m = await monitor();
      const run = await exec(['--monitor', m.id, '--url', vigil.url, '--', ...node('process.stdout.write(process.env.VIGIL_RUN_ID)')]);
      const [start] = await pings(m.id);
      expect(run.stdout).to.equal(start!['run_id']);
    });

    it('finds the monitor by slug with the ping key and URL from VIGIL_PING_KEY and VIGIL_URL', async () => {
      const m = await monitor({ name: 'By slug', slug: 'exec-by-slug' });
      const run = await exec(['--slug', 'exec-by-slug', '--', ...node('')], { VIGIL_URL: vigil.url, VIGIL_PING_KEY: project.ping_key });
      expect(run.code).to.equal(0);
      expect(run.stderr).to.equal('');
      expect((await pings(m.id)).map((p) => p['event'])).to.deep.equal(['START', 'SUCCESS']);
    });

    it('does not wait for a background process the job left behind holding its output open', async () => {
      const m = await monitor();
      const leavesOrphan = `const orphan = require("node:child_process").spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"], { stdio: "inherit" });
        orphan.unref(); console.log(orphan.pid)`;
      const run = await exec(['--monitor', m.id, '--url', vigil.url, '--', ...node(leavesOrphan)]);
      process.kill(Number(run.stdout.trim()), 'SIGKILL');
      expect(run.code).to.equal(0);
      expect(run.elapsedMs).to.be.below(5000);
      expect((await pings(m.id))[1]).to.include({ event: 'SUCCESS', payload: run.stdout });
    });
  });

  describe('when the job fails', () => {
    it('exits with its exit code and reports FAILURE with it; the monitor goes DOWN with a FAILED incident at failure_tolerance', async () => {
      const m = await monitor({ failure_tolerance: 2 });
      const args = ['--monitor', m.id, '--url', vigil.url, '--', ...node('console.error("disk full"); process.exit(3)')];

      const first = await exec(args);
      expect(first.code).to.equal(3);
      expect(first.stderr).to.equal('disk full\n');
      const [start, failure] = await pings(m.id);
      expect(failure).to.include({ event: 'FAILURE', exit_code: 3, run_id: start!['run_id'], payload: 'disk full\n', message: null });
      expect(await monitorNow(m.id)).to.include({ status: 'UP', consecutive_failures: 1 });

      expect((await exec(args)).code).to.equal(3);
      expect(await monitorNow(m.id)).to.include({ status: 'DOWN', consecutive_failures: 2 });
      const incidents = (await vigil.request('GET', `/v1/monitors/${m.id}/incidents`, { key })).body.data;
      expect(incidents).to.have.length(1);
      expect(incidents[0]).to.include({ event: 'FAILED', status: 'OPEN' });
    });

    it('keeps running the job and reports its exit code when its output has no reader any more (a closed pipe)', async () => {
      const m = await monitor();
      const closedPipe = new Writable({
        write(_chunk, _encoding, done) {
          done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
        },
      });
      const stderr = collect();
      const args = ['--monitor', m.id, '--url', vigil.url, '--', ...node('for (let i = 0; i < 2000; i++) console.log(i); process.exitCode = 3')];
      const code = await runExec(args, { env: {}, stdout: closedPipe, stderr: stderr.stream, stdin: 'ignore', delivery: QUICK_RETRIES, killGraceMs: 300 });
      expect(code).to.equal(3);
      const [, done] = await pings(m.id);
      expect(done).to.include({ event: 'FAILURE', exit_code: 3 });
      expect(done!['payload']).to.match(/1999\n$/);
    });

    it('reports death by a signal as 128 + its number, as shells do', async () => {
      const m = await monitor();
      const run = await exec(['--monitor', m.id, '--url', vigil.url, '--', ...node('process.kill(process.pid, "SIGKILL")')]);
      expect(run.code).to.equal(137);
      expect((await pings(m.id))[1]).to.include({ event: 'FAILURE', exit_code: 137, message: 'killed by SIGKILL' });
    });

    it('reports a command that cannot be found as FAILURE and exits 127', async () => {
      const m = await monitor();
      const run = await exec(['--monitor', m.id, '--url', vigil.url, '--', 'vigil-test-no-such-command', '--flag']);
      expect(run.code).to.equal(127);
      const [start, failure] = await pings(m.id);
      expect(start).to.include({ event: 'START' });
      expect(failure).to.include({ event: 'FAILURE', exit_code: 127, message: 'could not run vigil-test-no-such-command: command not found' });
    });
  });

  describe('the output tail', () => {
    it('sends only the last --tail-kb KB of the output as the payload, ending with the last line, while passing all of it through', async () => {
      const m = await monitor();
      const script = 'for (let i = 1; i <= 3000; i++) console.log(`line ${String(i).padStart(5, "0")}`)';
      const run = await exec(['--monitor', m.id, '--url', vigil.url, '--tail-kb', '1', '--', ...node(script)]);

      expect(run.code).to.equal(0);
      expect(run.stdout.split('\n')).to.have.length(3001);
      const payload: string = (await pings(m.id))[1]!['payload'];
      expect(Buffer.byteLength(payload)).to.equal(1024);
      expect(payload.endsWith('line 02999\nline 03000\n')).to.equal(true);
      expect(payload).not.to.include('line 02000');
      expect(run.stdout.endsWith(payload)).to.equal(true);
    });

    it('keeps 10 KB by default', async () => {
      const m = await monitor();
      const run = await exec(['--monitor', m.id, '--url', vigil.url, '--', ...node('process.stdout.write("x".repeat(50_000) + "END")')]);
      expect(run.stdout).to.have.length(50_003);
      const payload: string = (await pings(m.id))[1]!['payload'];
      expect(payload).to.equal(`${'x'.repeat(10 * 1024 - 3)}END`);
    });
  });

  describe('--timeout', () => {
    it('stops the job when it runs too long, reports FAILURE saying so and exits 124 like timeout(1)', async () => {
      const m = await monitor();
      const run = await exec(['--monitor', m.id, '--url', vigil.url, '--timeout', '1s', '--', ...node('console.log("working"); setInterval(() => {}, 1000)')]);
      expect(run.code).to.equal(124);
      expect(run.elapsedMs).to.be.within(1000, 5000);
      const failure = (await pings(m.id))[1]!;
      expect(failure).to.include({ event: 'FAILURE', exit_code: 124, message: 'timed out after 1s', payload: 'working\n' });
      expect(failure['duration_ms']).to.be.within(1000, 5000);
    });

    it('kills a job that ignores SIGTERM once the grace period is over', async () => {
      const m = await monitor();
      const ignoresTerm = 'process.on("SIGTERM", () => console.log("ignoring SIGTERM")); console.log("ready"); setInterval(() => {}, 1000)';
      const run = await exec(['--monitor', m.id, '--url', vigil.url, '--timeout', '1s', '--', ...node(ignoresTerm)]);
      expect(run.code).to.equal(124);
      expect(run.stdout).to.equal('ready\nignoring SIGTERM\n');
      expect((await pings(m.id))[1]).to.include({ event: 'FAILURE', message: 'timed out after 1s' });
    });
  });

  describe('when Vigil cannot take the pings', () => {
    it('still runs the job and exits with its code when Vigil is down, with one warning per ping and no long wait', async () => {
      const closed = `http://127.0.0.1:${await freePort()}`;
      const run = await exec(['--monitor', '6f0b0a57-1d7c-4b36-9f1a-2a6a1b0f9a00', '--url', closed, '--', ...node('console.log("ran anyway"); process.exit(5)')]);
      expect(run.code).to.equal(5);
      expect(run.stdout).to.equal('ran anyway\n');
      expect(run.stderr.trimEnd().split('\n')).to.deep.equal([
        `vigil: could not send start ping: ${closed} unreachable (ECONNREFUSED)`,
        `vigil: could not send failure ping: ${closed} unreachable (ECONNREFUSED)`,
      ]);
      expect(run.elapsedMs).to.be.below(3000);
    });

    it('retries a 5xx twice, then carries on with the job', async () => {
      const target = await startTarget(reply(503, '{"error":"starting up"}'));
      try {
        const run = await exec(['--monitor', 'm1', '--url', target.url, '--', ...node('')]);
        expect(run.code).to.equal(0);
        expect(target.seen.map((r) => r.url.split('?')[0])).to.deep.equal([
          ...Array(3).fill('/v1/ping/m1/start'),
          ...Array(3).fill('/v1/ping/m1/success'),
        ]);
        expect(run.stderr).to.include('vigil: could not send start ping: 503 starting up\n');
      } finally {
        await target.close();
      }
    });

    it('gives up on a server that does not answer after the request timeout, and retries it', async () => {
      const target = await startTarget(() => {});
      try {
        const run = await exec(['--monitor', 'm1', '--url', target.url, '--', ...node('process.exit(4)')], {}, { retryDelaysMs: [10], requestTimeoutMs: 100 });
        expect(run.code).to.equal(4);
        expect(target.seen).to.have.length(4);
        expect(run.stderr).to.include(`vigil: could not send failure ping: no answer from ${target.url} within 100 ms\n`);
      } finally {
        await target.close();
      }
    });

    it('does not retry a 4xx such as an unknown monitor, and still runs the job', async () => {
      const unknown = '6f0b0a57-1d7c-4b36-9f1a-2a6a1b0f9a00';
      const run = await exec(['--monitor', unknown, '--url', vigil.url, '--', ...node('console.log("ran")')]);
      expect(run.code).to.equal(0);
      expect(run.stdout).to.equal('ran\n');

      const target = await startTarget(reply(404, '{"error":"monitor not found"}'));
      try {
        await exec(['--monitor', unknown, '--url', target.url, '--', ...node('')]);
        expect(target.seen).to.have.length(2);
      } finally {
        await target.close();
      }
    });
  });

  describe('when Vigil has no such monitor (a mistyped crontab line)', () => {
    it('says so loudly after the job, naming the monitor and the server, and exits with the job’s code', async () => {
      const unknown = '6f0b0a57-1d7c-4b36-9f1a-2a6a1b0f9a00';
      const run = await exec(['--monitor', unknown, '--url', `${vigil.url}/`, '--', ...node('console.error("job output"); process.exit(3)')]);
      expect(run.code).to.equal(3);
      expect(run.stderr.split('\n')).to.deep.equal([
        'job output',
        `vigil exec: Vigil at ${vigil.url} has no monitor ${unknown} (404 monitor not found).`,
        'vigil exec: check the --monitor in your crontab line, and that --url or VIGIL_URL is the Vigil that has it.',
        'vigil exec: the job ran anyway and exited 3; Vigil recorded nothing of its start and failure pings.',
        '',
      ]);
    });

    it('names the slug for a slug that the ping key’s project does not have', async () => {
      const run = await exec(['--slug', 'nightly-typo', '--ping-key', project.ping_key, '--', ...node('')], { VIGIL_URL: vigil.url });
      expect(run.code).to.equal(0);
      expect(run.stderr.split('\n')).to.deep.equal([
        `vigil exec: Vigil at ${vigil.url} has no monitor with the slug nightly-typo in the project of that ping key (404 monitor not found).`,
        'vigil exec: check the --slug and --ping-key (or VIGIL_PING_KEY) in your crontab line, and that --url or VIGIL_URL is the Vigil that has it.',
        'vigil exec: the job ran anyway and exited 0; Vigil recorded nothing of its start and success pings.',
        '',
      ]);
    });

    it('names only the ping refused when the monitor appeared during the run', async () => {
      const target = await startTarget((request, response) => {
        const start = request.url?.startsWith('/v1/ping/m1/start');
        response.writeHead(start ? 404 : 200, { 'Content-Type': 'application/json' });
        response.end(start ? '{"error":"monitor not found"}' : '{"ok":true}');
      });
      try {
        const run = await exec(['--monitor', 'm1', '--url', target.url, '--', ...node('')]);
        expect(run.code).to.equal(0);
        expect(run.stderr.trimEnd().split('\n').at(-1)).to.equal('vigil exec: the job ran anyway and exited 0; Vigil recorded nothing of its start ping.');
      } finally {
        await target.close();
      }
    });
  });

  describe('usage', () => {
    const cases: [string, string[], NodeJS.ProcessEnv, RegExp][] = [
      ['no monitor', ['--', 'true'], {}, /which monitor\? give its id or --slug/],
      ['no --', ['--monitor', 'm1', 'true'], {}, /exec needs -- before the command to run/],
      ['no command after --', ['--monitor', 'm1', '--'], {}, /exec needs a command after --/],
      ['a timeout without a unit', ['--monitor', 'm1', '--timeout', '10', '--', 'true'], {}, /--timeout must be a duration like 90s, 30m or 2h, not 10/],
      ['a zero timeout', ['--monitor', 'm1', '--timeout', '0s', '--', 'true'], {}, /--timeout must be a duration/],
      ['a timeout longer than a timer can wait', ['--monitor', 'm1', '--timeout', '600h', '--', 'true'], {}, /--timeout must be at most 596h, not 600h/],
      ['a bad --tail-kb', ['--monitor', 'm1', '--tail-kb', 'lots', '--', 'true'], {}, /--tail-kb must be a whole number of KB/],
      ['a slug with no ping key', ['--slug', 'nightly', '--', 'true'], {}, /--slug needs the project ping key: --ping-key or VIGIL_PING_KEY/],
      ['a monitor and a slug', ['--monitor', 'm1', '--slug', 's', '--ping-key', 'k', '--', 'true'], {}, /give a monitor id or --slug, not both/],
      ['a URL that is not http', ['--monitor', 'm1', '--', 'true'], { VIGIL_URL: 'localhost:8080' }, /the Vigil URL must be an http:\/\/ or https:\/\/ URL/],
      ['an unknown flag', ['--monitr', 'm1', '--', 'true'], {}, /Unknown option '--monitr'/],
    ];
    for (const [name, args, env, message] of cases) {
      it(`exits 2 with a message and the usage, running nothing, for ${name}`, async () => {
        const target = await startTarget(reply(200, '{}'));
        try {
          const run = await exec(args, { VIGIL_URL: target.url, ...env });
          expect(run.code).to.equal(2);
          expect(run.stderr).to.match(message);
          expect(run.stderr).to.include('usage:\n  vigil exec');
          expect(target.seen).to.deep.equal([]);
        } finally {
          await target.close();
        }
      });
    }
  });

  describe('as a real process (npm run vigil -- exec …)', function () {
    this.timeout(30_000);

    function vigilExec(monitorId: string, job: string[]) {
      const child = spawn(process.execPath, ['--import=tsx', 'src/main/cli.ts', 'exec', '--monitor', monitorId, '--', ...job], {
        env: { ...process.env, VIGIL_URL: vigil.url },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const stdout = collect();
      const stderr = collect();
      child.stdout.pipe(stdout.stream);
      child.stderr.pipe(stderr.stream);
      const exited = new Promise<number | null>((resolve) => child.once('close', (exitCode) => resolve(exitCode)));
      return { child, stdout, stderr, exited };
    }

    it('passes the job output and exit code through end to end', async () => {
      const m = await monitor();
      const { stdout, stderr, exited } = vigilExec(m.id, node('console.log("from the job"); process.exit(7)'));
      const code = await exited;

      expect(stderr.text()).to.equal('');
      expect(stdout.text()).to.equal('from the job\n');
      expect(code).to.equal(7);
      const [start, failure] = await pings(m.id);
      expect(start).to.include({ event: 'START' });
      expect(failure).to.include({ event: 'FAILURE', exit_code: 7, run_id: start!['run_id'], payload: 'from the job\n' });
    });

    it('passes a SIGTERM sent to it on to the job, and still reports how the job ended', async () => {
      const m = await monitor();
      const { child, stdout, exited } = vigilExec(m.id, node('console.log("ready"); setInterval(() => {}, 1000)'));
      await new Promise<void>((resolve) => stdout.stream.on('data', () => stdout.text().includes('ready') && resolve()));
      child.kill('SIGTERM');

      expect(await exited).to.equal(143);
      const [, failure] = await pings(m.id);
      expect(failure).to.include({ event: 'FAILURE', exit_code: 143, message: 'killed by SIGTERM', payload: 'ready\n' });
    });
  });
});
