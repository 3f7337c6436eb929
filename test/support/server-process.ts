import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { promisify } from 'node:util';

const run = promisify(execFile);

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/**
 * What a spec's child process starts from: this process's environment less the production store
 * URLs (CI sets them for the adapter contract suites), so that the child runs on the stores its
 * spec names, as it does where they are not set; then `env`.
 */
export function childEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { VIGIL_EVENTSTORE_URL: _events, VIGIL_MONGODB_URL: _readModels, ...inherited } = process.env;
  return { ...inherited, ...env };
}

/** The server as its own OS process, as `npm start` runs it (without the build step). */
export async function spawnServer(env: NodeJS.ProcessEnv): Promise<{ url: string; child: ChildProcess; exited: Promise<number | null> }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import=tsx', 'src/main/server.ts'], {
    env: childEnv({ ...env, PORT: String(port), HOST: '127.0.0.1', VIGIL_LOG_LEVEL: 'warn' }),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  // Generous: tsx compiles the server on start, which takes a loaded machine a while.
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await fetch(`${url}/v1/projects`);
      return { url, child, exited };
    } catch (error) {
      if (Date.now() > deadline || child.exitCode !== null) {
        // A server that never answered must not outlive the spec (it would keep the run's output open).
        child.kill('SIGKILL');
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** `npm run --silent vigil -- …` as a user types it; returns the JSON it printed. */
export async function vigilCli(args: string[], env: NodeJS.ProcessEnv): Promise<any> {
  const { stdout } = await run('npm', ['run', '--silent', 'vigil', '--', ...args], { env: childEnv(env) });
  return JSON.parse(stdout);
}
