import { expect } from 'chai';
import type { Actor } from '../../src/app/command-handler.js';
import { commandContext } from '../../src/app/context.js';
import { findUserIdByEmail, registerUser } from '../../src/app/identity.js';
import { type EmbeddedStores, openEmbeddedStores } from '../support/embedded-stores.js';

const actor: Actor = { kind: 'cli', user_id: null, api_key_id: null, request_id: null };

describe('registerUser', () => {
  let stores: EmbeddedStores;
  beforeEach(() => (stores = openEmbeddedStores()));
  afterEach(() => stores.dispose());

  it('refuses a second user with the same email, whatever its case', async () => {
    const context = commandContext(stores.events);
    await registerUser(context, { email: 'grace@example.com', first_name: 'G', last_name: 'H' }, actor);
    const error = await registerUser(context, { email: 'Grace@Example.COM', first_name: 'X', last_name: 'Y' }, actor).catch((e) => e);
    expect(String(error)).to.match(/a user with email grace@example.com already exists/);
  });

  it('lets only one of two racing registrations of an address win', async () => {
    const context = commandContext(stores.events);
    const outcomes = await Promise.allSettled([
      registerUser(context, { email: 'race@example.com', first_name: 'A', last_name: '' }, actor),
      registerUser(context, { email: 'race@example.com', first_name: 'B', last_name: '' }, actor),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).to.have.length(1);
    const registered = (await stores.events.readAll()).filter((e) => e.type === 'UserRegistered');
    expect(registered).to.have.length(1);
  });

  it('completes a registration that stopped between claiming the address and registering the user', async () => {
    await stores.events.appendToStream('useremail-half@example.com', [
      { type: 'EmailClaimed', data: { email: 'half@example.com', user_id: 'u-half', claimed_at: '2026-11-21T00:00:00.000Z' } },
    ]);
    const { user } = await registerUser(commandContext(stores.events), { email: 'half@example.com', first_name: 'H', last_name: '' }, actor);
    expect(user.id).to.equal('u-half');
    expect(await findUserIdByEmail(commandContext(stores.events), 'half@example.com')).to.equal('u-half');
    expect((await stores.events.readStream('user-u-half')).map((e) => e.type)).to.deep.equal(['UserRegistered']);
  });
});
