import { expect } from 'chai';
import { allProjections } from '../../projections/index.js';
import type { Actor } from '../../src/app/command-handler.js';
import { commandContext } from '../../src/app/context.js';
import { registerUser } from '../../src/app/identity.js';
import { createProject, updateProject } from '../../src/app/projects.js';
import { LeadProjector } from '../../src/coordination/lead-projector.js';
import { SqliteLeaseStore } from '../../src/coordination/sqlite-lease-store.js';
import { Projector } from '../../src/projector/projector.js';
import { CheckpointPoller } from '../../src/projector/read-model-progress.js';
import { type EmbeddedStores, dumpReadModels, openEmbeddedStores } from '../support/embedded-stores.js';
import { TestClock } from '../support/test-vigil.js';

const TTL = 10_000;
const ACTOR: Actor = { kind: 'cli', user_id: null, api_key_id: null, request_id: null };

describe('Projectors in several processes', function () {
  this.timeout(30_000);
  let stores: EmbeddedStores;
  let clock: TestClock;
  beforeEach(() => {
    stores = openEmbeddedStores();
    clock = new TestClock();
  });
  afterEach(() => stores.dispose());

  const commands = () => commandContext(stores.events, { clock: clock.now });
  async function writeProjects(count: number): Promise<string[]> {
    const context = commands();
    const { user } = await registerUser(context, { email: `owner-${Math.random()}@example.com`, first_name: 'O', last_name: 'W' }, ACTOR);
    const ids: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const { projectId } = await createProject(context, { name: `P${i}`, description: '', owner_id: user.id }, ACTOR);
      if (i % 3 === 0) await updateProject(context, { project_id: projectId, description: `changed ${i}` }, ACTOR);
      ids.push(projectId);
    }
    return ids;
  }
  /** A process's projector role: its own connection, leases and standby progress. */
  function processOn(connection: ReturnType<EmbeddedStores['openSecondConnection']>, holder: string) {
    const projections = allProjections();
    return new LeadProjector(
      new SqliteLeaseStore(connection.db), holder, { ttlMs: TTL, clock: clock.now, onError: (error) => { throw error; } },
      () => new Projector(connection.events, connection.readModels, projections),
      new CheckpointPoller(connection.readModels, projections.map((p) => p.name)),
    );
  }

  it('are safe but wasteful without a lease: two at once still leave the read models a fresh rebuild gives', async () => {
    const [one, two] = [stores.openSecondConnection(), stores.openSecondConnection()];
    const projectors = [new Projector(one.events, one.readModels, allProjections()), new Projector(two.events, two.readModels, allProjections())];
    await Promise.all(projectors.map((p) => p.start()));
    await writeProjects(60);
    const head = await stores.events.headPosition();
    await Promise.all(projectors.map((p) => p.waitForPosition(head, 10_000)));
    await Promise.all(projectors.map((p) => p.stop()));
    const live = dumpReadModels(stores.db);
    expect(live['rm_projects']).to.have.length(60);
    await new Projector(stores.events, stores.readModels, allProjections()).rebuild();
    expect(dumpReadModels(stores.db)).to.deep.equal(live);
  });

  it('lets one lead while the other stands by, serving read-your-writes from the leader\'s checkpoints', async () => {
    const [a, b] = [processOn(stores.openSecondConnection(), 'a'), processOn(stores.openSecondConnection(), 'b')];
    await a.start();
    await b.start();
    expect(a.projector).to.not.equal(null);
    expect(b.projector).to.equal(null);
    await writeProjects(5);
    await b.waitForPosition(await stores.events.headPosition(), 5000);
    expect(await stores.readModels.count('projects')).to.equal(5);
    await b.stop();
    await a.stop();
  });

  it('hands the log to the standby once a dead leader\'s lease has expired, and on a clean stop at once', async () => {
    const [a, b] = [processOn(stores.openSecondConnection(), 'a'), processOn(stores.openSecondConnection(), 'b')];
    await a.refresh();
    await a.started();
    await b.refresh();
    // a is killed: its projector stops and its lease is never renewed again.
    await a.projector!.stop();
    await writeProjects(3);
    clock.advance(TTL - 1);
    await b.refresh();
    expect(b.projector, 'not while the lease lives').to.equal(null);
    clock.advance(1);
    await b.refresh();
    expect(b.projector).to.not.equal(null);
    await b.started();
    await b.waitForPosition(await stores.events.headPosition(), 5000);
    expect(await stores.readModels.count('projects')).to.equal(3);

    const c = processOn(stores.openSecondConnection(), 'c');
    await c.refresh();
    await b.stop();
    await c.refresh();
    expect(c.projector, 'a stopped leader lets go at once').to.not.equal(null);
    await c.started();
    await writeProjects(2);
    await c.waitForPosition(await stores.events.headPosition(), 5000);
    expect(await stores.readModels.count('projects')).to.equal(5);
    await c.stop();
  });
});
