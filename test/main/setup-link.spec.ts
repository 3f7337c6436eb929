import { spawn } from 'node:child_process';
import { expect } from 'chai';
import { childEnv, freePort, vigilCli } from '../support/server-process.js';
import { makeTempDir } from '../support/temp-dir.js';

/** The first-run link as an operator sees it: on the server's stderr, at start. */
describe('The first-run setup link', function () {
  this.timeout(180_000);

  /** Starts `npm start`'s server on `dataDir` and waits for it to answer; its stderr so far, and a stop. */
  async function serve(dataDir: string): Promise<{ url: string; stderr: () => string; stop: () => Promise<void> }> {
    const port = await freePort();
    const child = spawn(process.execPath, ['--import=tsx', 'src/main/server.ts'], {
      env: childEnv({ VIGIL_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', VIGIL_LOG_LEVEL: 'warn' }),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 90_000;
    for (;;) {
      try {
        await fetch(`${url}/healthz`);
        break;
      } catch (error) {
        if (Date.now() > deadline || child.exitCode !== null) {
          child.kill('SIGKILL');
          throw error;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    // The link is printed once the read models have caught up, just after the port opens.
    for (let i = 0; i < 100 && !/setup\?token=|listening/.test(stderr) && !stderr.includes('no account'); i += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    return {
      url,
      stderr: () => stderr,
      stop: async () => {
        child.kill('SIGTERM');
        await exited;
      },
    };
  }

  it('is printed at every start while no account exists, works once, and is not printed once one exists', async () => {
    const dir = makeTempDir('vigil-setup');
    try {
      const first = await serve(dir.path);
      const printed = /vigil: no account exists yet\. Create the first one in a browser \(this link works once\): (http:\/\/\S+)/.exec(first.stderr())?.[1];
      expect(printed, first.stderr()).to.match(new RegExp(`^${first.url}/setup\\?token=[A-Za-z0-9_-]{43}$`));
      const page = await fetch(printed!);
      expect(page.status).to.equal(200);
      expect(await page.text()).to.contain('Create the first account');
      await first.stop();

      // A restart without an account prints a new link, and the old one stops working.
      const second = await serve(dir.path);
      const again = /\(this link works once\): (http:\/\/\S+)/.exec(second.stderr())?.[1];
      expect(again).to.be.a('string').and.not.equal(printed!.replace(first.url, second.url));
      expect((await fetch(printed!.replace(first.url, second.url))).status).to.equal(403);
      await second.stop();

      // `vigil bootstrap` keeps working; after it, no link.
      const bootstrapped = await vigilCli(['bootstrap', '--email', 'ops@example.com', '--json'], { VIGIL_DATA_DIR: dir.path });
      expect(bootstrapped.user.email).to.equal('ops@example.com');
      const third = await serve(dir.path);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(third.stderr()).to.not.contain('setup?token=');
      expect((await fetch(`${third.url}/setup?token=${'A'.repeat(43)}`)).status).to.equal(404);
      await third.stop();
    } finally {
      dir.remove();
    }
  });
});
