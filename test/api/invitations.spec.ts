import { expect } from 'chai';
import { INVITATION_LIFETIME_DAYS } from '../../src/domain/projects/invitations.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

const DAY_MS = 86_400_000;
const tokenOf = (url: string) => url.split('/invitations/')[1]!;

describe('Invitations API', function () {
  this.timeout(60_000);
  let vigil: TestVigil;
  let ownerKey: string;
  let managerKey: string;
  let memberKey: string;
  let projectId: string;
  let managerId: string;

  beforeEach(async () => {
    vigil = await TestVigil.start();
    const owner = await vigil.user('owner@example.com');
    const manager = await vigil.user('manager@example.com');
    managerId = manager;
    const member = await vigil.user('member@example.com');
    projectId = await vigil.project(owner, 'Jobs');
    await vigil.member(projectId, manager, 'MANAGER');
    await vigil.member(projectId, member, 'MEMBER');
    ownerKey = await vigil.accountKey(owner, ALL_SCOPES);
    managerKey = await vigil.accountKey(manager, ALL_SCOPES);
    memberKey = await vigil.accountKey(member, ALL_SCOPES);
  });
  afterEach(() => vigil.stop());

  const invite = (key: string, email: string, role = 'MEMBER') => vigil.request('POST', `/v1/projects/${projectId}/invitations`, { key, body: { email, role } });
  const accept = (key: string, token: string) => vigil.request('POST', '/v1/invitations/accept', { key, body: { token } });

  it('issues an invitation with a one-time link, lists it as open with who invited and when it expires, and never shows the token again', async () => {
    const issued = await invite(managerKey, 'New.Person@Example.com', 'MANAGER');
    expect(issued.status, issued.text).to.equal(201);
    expect(issued.body.url).to.match(new RegExp(`^${vigil.url}/invitations/[0-9A-Za-z]{43}$`));
    expect(issued.body.emailed).to.equal(false);
    const { invitation } = issued.body;
    expect(invitation).to.include({ project_id: projectId, email: 'new.person@example.com', role: 'MANAGER', status: 'open', accepted_at: null, revoked_at: null });
    expect(Date.parse(invitation.expires_at) - Date.parse(invitation.issued_at)).to.equal(INVITATION_LIFETIME_DAYS * DAY_MS);

    const listed = await vigil.request('GET', `/v1/projects/${projectId}/invitations`, { key: ownerKey });
    expect(listed.status).to.equal(200);
    expect(listed.body.invitations).to.deep.equal([invitation]);
    expect(listed.text).to.not.include(tokenOf(issued.body.url));
    const events = await vigil.request('GET', `/v1/projects/${projectId}/events?type=InvitationIssued`, { key: ownerKey });
    expect(events.text).to.not.include(tokenOf(issued.body.url));
    expect(events.body.data[0].data.token_hash).to.equal('[redacted]');
  });

  it('answers an address with an account exactly as one without: nothing is looked up', async () => {
    await vigil.user('has-account@example.com');
    const known = await invite(managerKey, 'has-account@example.com');
    const unknown = await invite(managerKey, 'nobody-here@example.com');
    expect([known.status, unknown.status]).to.deep.equal([201, 201]);
    const shape = (body: any) => ({ ...body, invitation: { ...body.invitation, id: '', email: '', issued_at: '', expires_at: '' }, url: body.url.replace(/[0-9A-Za-z]{43}$/, '') });
    expect(shape(known.body)).to.deep.equal(shape(unknown.body));
  });

  it('lets MANAGERs and OWNERs invite, a MEMBER not; no role above the inviter\'s, and OWNER never', async () => {
    expect((await invite(memberKey, 'a@example.com', 'READONLY')).status).to.equal(403);
    const asOwner = await invite(managerKey, 'b@example.com', 'OWNER');
    expect(asOwner.status).to.equal(400);
    expect(asOwner.body.error).to.match(/role/);
    expect((await invite(managerKey, 'c@example.com', 'MANAGER')).status).to.equal(201);
    expect((await invite(ownerKey, 'd@example.com', 'READONLY')).status).to.equal(201);
    // A key without manage_projects is refused before anything else is looked at.
    const managerReadOnly = await vigil.request('POST', `/v1/projects/${projectId}/invitations`, { key: await vigil.accountKey(managerId, ['read']), body: { email: 'e@example.com', role: 'READONLY' } });
    expect(managerReadOnly.status).to.equal(403);
    expect(managerReadOnly.body.code).to.equal('INSUFFICIENT_API_KEY_SCOPE');
    const strangerKey = await vigil.accountKey(await vigil.user('stranger@example.com'), ALL_SCOPES);
    expect((await invite(strangerKey, 'f@example.com')).status).to.equal(404);
  });

  it('refuses a second open invitation to one address, and allows it again once the first is revoked', async () => {
    const first = await invite(managerKey, 'twice@example.com');
    const again = await invite(ownerKey, 'TWICE@example.com');
    expect(again.status).to.equal(409);
    expect(again.body.error).to.match(/already has an open invitation/);
    const revoked = await vigil.request('DELETE', `/v1/projects/${projectId}/invitations/${first.body.invitation.id}`, { key: ownerKey });
    expect(revoked.status).to.equal(204);
    expect((await invite(ownerKey, 'twice@example.com')).status).to.equal(201);
  });

  it('adds the invited user with the role when they accept, and works once', async () => {
    const joinerId = await vigil.user('joiner@example.com');
    const joinerKey = await vigil.accountKey(joinerId, ['read']);
    const { body } = await invite(managerKey, 'joiner@example.com', 'READONLY');
    expect((await vigil.request('GET', `/v1/projects/${projectId}`, { key: joinerKey })).status).to.equal(404);

    const accepted = await accept(joinerKey, tokenOf(body.url));
    expect(accepted.status, accepted.text).to.equal(200);
    expect(accepted.body.member).to.include({ project_id: projectId, user_id: joinerId, role: 'READONLY' });
    expect((await vigil.request('GET', `/v1/projects/${projectId}`, { key: joinerKey })).status).to.equal(200);
    // Not listed as waiting any more.
    expect((await vigil.request('GET', `/v1/projects/${projectId}/invitations`, { key: ownerKey })).body.invitations).to.deep.equal([]);

    // Once: removed, the same link does not let them back in.
    expect((await vigil.request('DELETE', `/v1/projects/${projectId}/members/${joinerId}`, { key: ownerKey })).status).to.equal(204);
    const reused = await accept(joinerKey, tokenOf(body.url));
    expect(reused.status).to.equal(409);
    expect(reused.body.error).to.match(/already been used/);
    expect((await vigil.request('GET', `/v1/projects/${projectId}`, { key: joinerKey })).status).to.equal(404);
  });

  it('lets only the account with the invited address accept: a link passed to someone else lets them in nowhere', async () => {
    const { body } = await invite(managerKey, 'intended@example.com');
    const otherKey = await vigil.accountKey(await vigil.user('other@example.com'), ['read']);
    const refused = await accept(otherKey, tokenOf(body.url));
    expect(refused.status).to.equal(400);
    expect(refused.body.error).to.match(/for another email address/);
    expect((await vigil.request('GET', `/v1/projects/${projectId}`, { key: otherKey })).status).to.equal(404);
    expect((await accept(otherKey, 'x'.repeat(43))).status).to.equal(404);
  });

  it('expires after 7 days on the clock, listed as expired until revoked, and refused to the invitee', async () => {
    const inviteeKey = await vigil.accountKey(await vigil.user('late@example.com'), ['read'], 60);
    const { body } = await invite(managerKey, 'late@example.com');
    vigil.clock.advance(INVITATION_LIFETIME_DAYS * DAY_MS - 1000);
    const [stillOpen] = (await vigil.request('GET', `/v1/projects/${projectId}/invitations`, { key: ownerKey })).body.invitations;
    expect(stillOpen.status).to.equal('open');
    vigil.clock.advance(1000);
    const [expired] = (await vigil.request('GET', `/v1/projects/${projectId}/invitations`, { key: ownerKey })).body.invitations;
    expect(expired.status).to.equal('expired');
    const late = await accept(inviteeKey, tokenOf(body.url));
    expect(late.status).to.equal(400);
    expect(late.body.error).to.match(/expired/);
    expect((await vigil.request('DELETE', `/v1/projects/${projectId}/invitations/${expired.id}`, { key: managerKey })).status).to.equal(204);
    expect((await vigil.request('GET', `/v1/projects/${projectId}/invitations`, { key: ownerKey })).body.invitations).to.deep.equal([]);
  });

  it('refuses a revoked link, and revoking it again changes nothing', async () => {
    const inviteeKey = await vigil.accountKey(await vigil.user('revoked@example.com'), ['read']);
    const { body } = await invite(managerKey, 'revoked@example.com');
    const path = `/v1/projects/${projectId}/invitations/${body.invitation.id}`;
    expect((await vigil.request('DELETE', path, { key: memberKey })).status).to.equal(403);
    expect((await vigil.request('DELETE', path, { key: ownerKey })).status).to.equal(204);
    expect((await vigil.request('DELETE', path, { key: ownerKey })).status).to.equal(204);
    const refused = await accept(inviteeKey, tokenOf(body.url));
    expect(refused.status).to.equal(409);
    expect(refused.body.error).to.match(/revoked/);
    const elsewhere = await vigil.project(await vigil.user('else@example.com'), 'Elsewhere');
    expect((await vigil.request('DELETE', `/v1/projects/${elsewhere}/invitations/${body.invitation.id}`, { key: ownerKey })).status).to.equal(404);
  });

  it('names the field a bad invitation gets wrong', async () => {
    const bad = await vigil.request('POST', `/v1/projects/${projectId}/invitations`, { key: ownerKey, body: { email: 'not an address', role: 'MEMBER' } });
    expect(bad.status).to.equal(400);
    expect(bad.body.error).to.match(/^email/);
  });
});
