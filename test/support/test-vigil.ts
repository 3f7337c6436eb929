import { cpSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pino } from 'pino';
import type { Logger } from '../../src/web/logger.js';
import type { Actor } from '../../src/app/command-handler.js';
import type { CommandContext } from '../../src/app/context.js';
import { issueApiKey, registerUser } from '../../src/app/identity.js';
import { addMember, createProject } from '../../src/app/projects.js';
import type { AssignableRole } from '../../src/domain/projects/project.js';
import type { Scope } from '../../src/domain/access/scopes.js';
import { loadConfig } from '../../src/main/config.js';
import { type RunningVigil, startVigil } from '../../src/main/vigil.js';
import { makeTempDir } from './temp-dir.js';

const TEST_ACTOR: Actor = { kind: 'system', user_id: null, api_key_id: null, request_id: null };

/** A clock the test moves by hand. */
export class TestClock {
  constructor(private ms = Date.parse('2026-11-21T12:00:00.000Z')) {}

  /**
   * A clock that starts at the wall clock's time, for specs whose fixtures something outside
   * Vigil judges by the wall clock: OpenSSL checks a certificate's dates against the real time in
   * every TLS handshake, so certificates dated from a fixed test date stop working once it passes.
   */
  static atWallTime(): TestClock {
    return new TestClock(Date.now());
  }

  now = (): Date => new Date(this.ms);
  advance(ms: number): void {
    this.ms += ms;
  }
}

export interface Response<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** A real Vigil on 127.0.0.1 with an ephemeral port and a temp data dir, plus shortcuts to seed it. */
export class TestVigil {
  private constructor(
    readonly vigil: RunningVigil,
    readonly dataDir: string,
    readonly env: NodeJS.ProcessEnv,
    readonly clock: TestClock,
    private readonly removeDir: () => void,
  ) {}

  /** `logger`: where the server logs (by default nowhere). */
  static async start(options: { env?: NodeJS.ProcessEnv; clock?: TestClock; logger?: Logger } = {}): Promise<TestVigil> {
    const dir = makeTempDir('vigil-api');
    return TestVigil.open(dir.path, options.env ?? {}, options.clock ?? new TestClock(), dir.remove, options.logger);
  }

  /**
   * Starts on an existing data dir, which `stop` then removes, on the clock of whatever wrote it
   * (the TestVigil it follows, or `TestClock.atWallTime()` after a real server process).
   * `logger`: where the server logs (by default nowhere).
   */
  static async reopen(dataDir: string, env: NodeJS.ProcessEnv, clock: TestClock, logger?: Logger): Promise<TestVigil> {
    return TestVigil.open(dataDir, env, clock, () => rmSync(dataDir, { recursive: true, force: true }), logger);
  }

  private static async open(dataDir: string, extraEnv: NodeJS.ProcessEnv, clock: TestClock, removeDir: () => void, logger?: Logger): Promise<TestVigil> {
    // Receivers in the tests listen on 127.0.0.1: deliveries may reach them unless a spec says otherwise.
    const env = { VIGIL_CHECK_RETRY_DELAY_MS: '0', VIGIL_PRIVATE_TARGETS: 'allow', ...extraEnv, VIGIL_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', VIGIL_LOG_LEVEL: 'silent' };
    const vigil = await startVigil(loadConfig(env), {
      roles: ['api', 'projector', 'timer', 'checker', 'notifier'],
      manualTimer: true,
      processMetrics: false,
      clock: clock.now,
      logger: logger ?? pino({ level: 'silent' }),
      // The first-run setup link is on `vigil.setupLink`; a spec reads it there.
      announce: () => {},
    });
    return new TestVigil(vigil, dataDir, env, clock, removeDir);
  }

  /** Stops the server but keeps its data dir, to look at the file or start again on it. */
  async stopKeepingData(): Promise<void> {
    await this.vigil.stop();
  }

  get url(): string {
    return this.vigil.url!;
  }

  /** The server's own command side (same locks and state cache), on the test clock. */
  get commands(): CommandContext {
    return this.vigil.commands;
  }

  async stop(): Promise<void> {
    const corpus = process.env['VIGIL_TEST_KEEP_DATA'];
    // `bench/rebuild-identity.ts` replays the kept logs with other code: keep them caught up.
    if (corpus) await this.settle().catch(() => {});
    await this.vigil.stop();
    if (corpus) cpSync(this.dataDir, join(corpus, basename(this.dataDir)), { recursive: true });
    this.removeDir();
  }

  async request<T = any>(method: string, path: string, options: { key?: string; body?: unknown; rawBody?: string | Uint8Array; headers?: Record<string, string> } = {}): Promise<Response<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key) headers['X-API-Key'] = options.key;
    let body: string | Uint8Array | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const response = await fetch(`${this.url}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await response.text();
    const json = /json/.test(response.headers.get('content-type') ?? '');
    return { status: response.status, headers: response.headers, text, body: text && json ? JSON.parse(text) : undefined };
  }

  /** Lets the timer fire what is due at the test clock's now, then waits for the read models. */
  async tick(): Promise<number> {
    await this.settle();
    const fired = await this.vigil.timer!.tick();
    await this.settle();
    return fired;
  }

  /** One confirmation by the Ping API that it is listening, at the test clock's now (the first after a start notices the outage before it). */
  async listen(): Promise<void> {
    await this.vigil.listening!.tick();
  }

  /** Lets the checker run the checks due at the test clock's now, then waits for the read models. */
  async check(): Promise<number> {
    await this.settle();
    const checked = await this.vigil.checker!.tick();
    await this.settle();
    return checked;
  }

  /** Lets the notifier fan out and deliver what is due, until nothing more is, then waits for the read models. */
  async notify(): Promise<number> {
    let attempted = 0;
    for (let round = 0; round < 10; round += 1) {
      await this.settle();
      // Deletions a crash left half-way first: the pages they hand over are delivered in this round.
      const deleted = (await this.vigil.monitorDeleter?.tick()) ?? 0;
      await this.settle();
      // Escalations next: the steps due now are fanned out in the same round as the pages.
      const escalated = (await this.vigil.escalator?.tick()) ?? 0;
      await this.settle();
      const done = await this.vigil.notifier!.tick();
      attempted += done.attempted;
      if (deleted === 0 && escalated === 0 && done.fannedOut === 0 && done.attempted === 0) break;
    }
    await this.settle();
    return attempted;
  }

  /** Waits until the read models include everything written so far. */
  async settle(): Promise<void> {
    await this.vigil.projector!.waitForPosition(await this.vigil.stores.events.headPosition(), 5000);
  }

  async user(email: string): Promise<string> {
    const { user } = await registerUser(this.commands, { email, first_name: email.split('@')[0]!, last_name: 'Test' }, TEST_ACTOR);
    return user.id;
  }

  async project(ownerId: string, name = 'Project'): Promise<string> {
    const { projectId } = await createProject(this.commands, { name, description: '', owner_id: ownerId }, TEST_ACTOR);
    return projectId;
  }

  async member(projectId: string, userId: string, role: AssignableRole): Promise<void> {
    await addMember(this.commands, { project_id: projectId, user_id: userId, role }, TEST_ACTOR);
  }

  async accountKey(userId: string, scopes: Scope[], days = 30): Promise<string> {
    const issued = await issueApiKey(
      this.commands,
      { user_id: userId, name: 'test', expires_in_days: days, kind: 'ACCOUNT', project_id: null, scopes, env: 'live', created_by_api_key_id: null },
      TEST_ACTOR,
    );
    await this.settle();
    return issued.key;
  }

  async projectKey(userId: string, projectId: string, days = 30): Promise<string> {
    const issued = await issueApiKey(
      this.commands,
      { user_id: userId, name: 'test', expires_in_days: days, kind: 'PROJECT', project_id: projectId, scopes: [], env: 'live', created_by_api_key_id: null },
      TEST_ACTOR,
    );
    await this.settle();
    return issued.key;
  }
}

export const ALL_SCOPES: Scope[] = ['read', 'manage_monitors', 'manage_projects', 'manage_notifications', 'destroy'];
