import { expect } from 'chai';
import { onCallChannelIds } from '../../src/app/on-call.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../support/test-vigil.js';

describe('On-call schedules API', function () {
  this.timeout(60_000);
  let vigil: TestVigil;
  let ownerKey: string;
  let projectId: string;
  let owner: string;
  let ann: string;
  let bob: string;
  let stranger: string;

  beforeEach(async () => {
    // Wednesday 25 March 2026, 12:00 UTC: the week before Berlin's clocks go forward.
    vigil = await TestVigil.start({ clock: new TestClock(Date.parse('2026-03-25T12:00:00.000Z')) });
    owner = await vigil.user('owner@example.com');
    ann = await vigil.user('ann@example.com');
    bob = await vigil.user('bob@example.com');
    stranger = await vigil.user('stranger@example.com');
    projectId = await vigil.project(owner, 'Ops');
    await vigil.member(projectId, ann, 'MEMBER');
    await vigil.member(projectId, bob, 'MEMBER');
    ownerKey = await vigil.accountKey(owner, ALL_SCOPES);
  });
  afterEach(() => vigil.stop());

  const create = (body: Record<string, unknown>, key = ownerKey) =>
    vigil.request('POST', '/v1/on-call-schedules', { key, body: { project_id: projectId, name: 'Primary', time_zone: 'Europe/Berlin', handoff_time: '09:00', rotation: 'weekly', starts_on: '2026-03-23', participants: [ann, bob], ...body } });

  it('creates a schedule and says who is on call now and next, handing off at 09:00 Berlin time across the clock change', async () => {
    const created = await create({});
    expect(created.status, created.text).to.equal(201);
    const schedule = created.body.on_call_schedule;
    expect(schedule).to.deep.include({ name: 'Primary', rotation: 'weekly', handoff_time: '09:00', participants: [ann, bob], overrides: [] });
    expect(schedule.on_call_now).to.deep.equal({ user_id: ann, from: '2026-03-23T08:00:00.000Z', until: '2026-03-30T07:00:00.000Z', override: false });
    expect(schedule.on_call_next).to.deep.equal({ user_id: bob, from: '2026-03-30T07:00:00.000Z', until: '2026-04-06T07:00:00.000Z', override: false });
    const list = await vigil.request('GET', `/v1/on-call-schedules?project_id=${projectId}`, { key: ownerKey });
    expect(list.body.on_call_schedules.map((s: { id: string }) => s.id)).to.deep.equal([schedule.id]);
  });

  it('changes the rotation and overrides, and deletes the schedule', async () => {
    const id = (await create({})).body.on_call_schedule.id;
    const patched = await vigil.request('PATCH', `/v1/on-call-schedules/${id}`, {
      key: ownerKey, body: { rotation: 2, overrides: [{ user_id: owner, from: '2026-03-25T00:00:00Z', until: '2026-03-26T00:00:00Z' }] },
    });
    expect(patched.status, patched.text).to.equal(200);
    expect(patched.body.on_call_schedule.rotation).to.equal(2);
    expect(patched.body.on_call_schedule.on_call_now).to.deep.equal({ user_id: owner, from: '2026-03-25T00:00:00.000Z', until: '2026-03-26T00:00:00.000Z', override: true });
    expect((await vigil.request('DELETE', `/v1/on-call-schedules/${id}`, { key: ownerKey })).status).to.equal(204);
    expect((await vigil.request('GET', `/v1/on-call-schedules/${id}`, { key: ownerKey })).status).to.equal(404);
  });

  it('answers 400 naming the field: a participant or override user not in the project, a bad zone, hand-off or rotation', async () => {
    const refused = async (body: Record<string, unknown>, message: RegExp) => {
      const response = await create(body);
      expect(response.status, response.text).to.equal(400);
      expect(response.body.error).to.match(message);
    };
    await refused({ participants: [ann, bob, stranger] }, /^participants\[2\]: not a member of this project/);
    await refused({ overrides: [{ user_id: stranger, from: '2026-03-25T00:00:00Z', until: '2026-03-26T00:00:00Z' }] }, /^overrides\[0\]\.user_id: not a member/);
    await refused({ participants: [ann, 'nobody'] }, /^participants\[1\] must be a user id/);
    await refused({ time_zone: 'Mars/Olympus' }, /^time_zone: /);
    await refused({ handoff_time: '25:00' }, /^handoff_time: /);
    await refused({ rotation: 'monthly' }, /^rotation must be daily, weekly or a whole number of days/);
    await refused({ starts_on: '2026-02-30' }, /^starts_on: /);
    await refused({ overrides: [{ user_id: ann, from: '2026-03-26T00:00:00Z', until: '2026-03-25T00:00:00Z' }] }, /^overrides\[0\]\.until: must be after from/);
  });

  it('is written by managers only, as groups are: a member may read it but not create one', async () => {
    const memberKey = await vigil.accountKey(ann, ALL_SCOPES);
    expect((await create({}, memberKey)).status).to.equal(403);
    const id = (await create({})).body.on_call_schedule.id;
    expect((await vigil.request('GET', `/v1/on-call-schedules/${id}`, { key: memberKey })).status).to.equal(200);
    expect((await vigil.request('DELETE', `/v1/on-call-schedules/${id}`, { key: memberKey })).status).to.equal(403);
  });

  it("reaches the on-call person's own channels: a member sets up their own, and onCallChannelIds answers them while they are on call", async () => {
    const annKey = await vigil.accountKey(ann, ALL_SCOPES);
    const own = await vigil.request('POST', '/v1/notification-channels', { key: annKey, body: { project_id: projectId, name: "Ann's phone", type: 'NTFY', config: { topic: 'ann-pager' }, owner_user_id: ann } });
    expect(own.status, own.text).to.equal(201);
    expect(own.body.channel.owner_user_id).to.equal(ann);
    // A member cannot make a channel of the project, nor someone else's.
    const notHers = await vigil.request('POST', '/v1/notification-channels', { key: annKey, body: { project_id: projectId, name: 'Bob', type: 'NTFY', config: { topic: 'bob' }, owner_user_id: bob } });
    expect(notHers.status).to.equal(403);
    const giveAway = await vigil.request('PATCH', `/v1/notification-channels/${own.body.channel.id}`, { key: annKey, body: { owner_user_id: bob } });
    expect(giveAway.status).to.equal(403);
    const renamed = await vigil.request('PATCH', `/v1/notification-channels/${own.body.channel.id}`, { key: annKey, body: { name: 'Ann (ntfy)' } });
    expect(renamed.status, renamed.text).to.equal(200);
    const outsider = await vigil.request('POST', '/v1/notification-channels', { key: ownerKey, body: { project_id: projectId, name: 'X', type: 'NTFY', config: { topic: 'x' }, owner_user_id: stranger } });
    expect(outsider.status).to.equal(400);
    expect(outsider.body.error).to.match(/^owner_user_id: not a member of this project/);

    const id = (await create({})).body.on_call_schedule.id;
    const readModels = vigil.vigil.stores.readModels;
    expect(await onCallChannelIds(readModels, id, '2026-03-25T12:00:00.000Z')).to.deep.equal([own.body.channel.id]);
    // Bob's week: he has no channel of his own.
    expect(await onCallChannelIds(readModels, id, '2026-03-30T07:00:00.000Z')).to.deep.equal([]);
    expect(await onCallChannelIds(readModels, id, '2026-03-20T00:00:00.000Z'), 'before the rotation starts').to.deep.equal([]);
    expect(await onCallChannelIds(readModels, '00000000-0000-4000-8000-000000000000', '2026-03-25T12:00:00.000Z')).to.deep.equal([]);

    // Ann leaves the project: her turn pages nobody, and a change to the schedule must take her out.
    expect((await vigil.request('DELETE', `/v1/projects/${projectId}/members/${ann}`, { key: ownerKey })).status).to.equal(204);
    expect(await onCallChannelIds(readModels, id, '2026-03-25T12:00:00.000Z')).to.deep.equal([]);
    const rename = await vigil.request('PATCH', `/v1/on-call-schedules/${id}`, { key: ownerKey, body: { name: 'Renamed' } });
    expect(rename.status).to.equal(400);
    expect(rename.body.error).to.match(/^participants\[0\]: not a member of this project/);
    expect((await vigil.request('PATCH', `/v1/on-call-schedules/${id}`, { key: ownerKey, body: { participants: [bob] } })).status).to.equal(200);
  });
});
