import { expect } from 'chai';
import type { Actor } from '../../src/app/command-handler.js';
import { commandContext } from '../../src/app/context.js';
import { registerUser } from '../../src/app/identity.js';
import { type SsoIdentity, userForSsoIdentity } from '../../src/app/sso-accounts.js';
import { type EmbeddedStores, openEmbeddedStores } from '../support/embedded-stores.js';

const actor: Actor = { kind: 'system', user_id: null, api_key_id: null, request_id: 'r1', request_ip: '127.0.0.1' };
const ada: SsoIdentity = { issuer: 'https://id.example.com', subject: 'sub-ada', email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' };

describe('userForSsoIdentity', () => {
  let stores: EmbeddedStores;
  beforeEach(() => (stores = openEmbeddedStores()));
  afterEach(() => stores.dispose());

  it('registers a person seen for the first time, recording that single sign-on made the account', async () => {
    const first = await userForSsoIdentity(commandContext(stores.events), ada, actor);
    expect(first.registered).to.equal(true);
    const events = await stores.events.readAll();
    expect(events.map((e) => e.type)).to.deep.equal(['EmailClaimed', 'UserRegistered', 'OidcSubjectLinked']);
    expect(events[1]!.data).to.include({ user_id: first.userId, email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' });
    expect(events[1]!.metadata).to.deep.include({ cause: 'oidc_sign_in' });
    expect(events[2]!.data).to.include({ user_id: first.userId, issuer: ada.issuer, subject: 'sub-ada', registered: true });
  });

  it('finds the same user by the subject the next time, even after the email changed at the provider', async () => {
    const context = commandContext(stores.events);
    const first = await userForSsoIdentity(context, ada, actor);
    const again = await userForSsoIdentity(context, { ...ada, email: 'ada.lovelace@example.com' }, actor);
    expect(again).to.deep.equal({ userId: first.userId, registered: false, position: null });
    expect((await stores.events.readAll()).filter((e) => e.type === 'UserRegistered')).to.have.length(1);
  });

  it('links an existing user with that email (any case) instead of making another', async () => {
    const context = commandContext(stores.events);
    const { user } = await registerUser(context, { email: 'Ada@Example.com', first_name: 'A', last_name: '' }, { kind: 'cli', user_id: null, api_key_id: null, request_id: null });
    const found = await userForSsoIdentity(context, ada, actor);
    expect(found).to.include({ userId: user.id, registered: false });
    const linkEvent = (await stores.events.readAll()).find((e) => e.type === 'OidcSubjectLinked');
    expect(linkEvent?.data).to.include({ user_id: user.id, registered: false });
  });

  it('makes one user of two first sign-ins of the same person at once', async () => {
    const context = commandContext(stores.events);
    const [a, b] = await Promise.all([userForSsoIdentity(context, ada, actor), userForSsoIdentity(context, ada, actor)]);
    expect(a.userId).to.equal(b.userId);
    expect((await stores.events.readAll()).filter((e) => e.type === 'UserRegistered')).to.have.length(1);
  });
});
