import { expect } from 'chai';
import type { Actor } from '../../src/app/command-handler.js';
import { commandContext } from '../../src/app/context.js';
import { addMember, createProject } from '../../src/app/projects.js';
import { type EmbeddedStores, openEmbeddedStores } from '../support/embedded-stores.js';

const actor: Actor = { kind: 'system', user_id: null, api_key_id: null, request_id: 'r-1' };

describe('handleCommand', () => {
  let stores: EmbeddedStores;
  beforeEach(() => (stores = openEmbeddedStores()));
  afterEach(() => stores.dispose());

  async function membersOf(projectId: string) {
    return (await stores.events.readStream(`project-${projectId}`)).filter((e) => e.type === 'ProjectMemberAdded').map((e) => e.data['user_id']);
  }

  it('queues a burst of commands to one stream in this process, so none of them conflicts', async () => {
    const context = commandContext(stores.events);
    const { projectId } = await createProject(context, { name: 'P', description: '', owner_id: 'owner' }, actor);
    const users = Array.from({ length: 50 }, (_, i) => `user-${i}`);
    await Promise.all(users.map((user_id) => addMember(context, { project_id: projectId, user_id, role: 'MEMBER' }, actor)));
    expect(await membersOf(projectId)).to.have.members(['owner', ...users]);
    expect(context.streamLocks.size).to.equal(0);
  });

  it('retries a command that lost a race to another process, deciding again on the newer state', async () => {
    // Two contexts share the store but not their locks, as two processes would.
    const first = commandContext(stores.events);
    const second = commandContext(stores.events);
    const { projectId } = await createProject(first, { name: 'P', description: '', owner_id: 'owner' }, actor);
    await Promise.all(
      ['a', 'b', 'c'].flatMap((user) => [
        addMember(first, { project_id: projectId, user_id: `first-${user}`, role: 'MEMBER' }, actor),
        addMember(second, { project_id: projectId, user_id: `second-${user}`, role: 'MEMBER' }, actor),
      ]),
    );
    expect(await membersOf(projectId)).to.have.members(['owner', 'first-a', 'first-b', 'first-c', 'second-a', 'second-b', 'second-c']);
  });

  it('refuses, after the retry, a command the newer state no longer allows', async () => {
    const context = commandContext(stores.events);
    const { projectId } = await createProject(context, { name: 'P', description: '', owner_id: 'owner' }, actor);
    const outcomes = await Promise.allSettled([
      addMember(context, { project_id: projectId, user_id: 'same', role: 'MEMBER' }, actor),
      addMember(commandContext(stores.events), { project_id: projectId, user_id: 'same', role: 'READONLY' }, actor),
    ]);
    expect(outcomes.map((o) => o.status).sort()).to.deep.equal(['fulfilled', 'rejected']);
    const rejected = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(String(rejected?.reason)).to.match(/already a member/);
  });

  it('records who caused each event in its metadata', async () => {
    const context = commandContext(stores.events);
    const { projectId } = await createProject(context, { name: 'P', description: '', owner_id: 'owner' }, { ...actor, kind: 'user', user_id: 'u-9', api_key_id: 'k-9' });
    const [created] = await stores.events.readStream(`project-${projectId}`);
    expect(created?.metadata).to.deep.equal({ kind: 'user', user_id: 'u-9', api_key_id: 'k-9', request_id: 'r-1', schema_version: 1 });
  });
});
