import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

describe('Status pages API', () => {
  let vigil: TestVigil;
  let key: string;
  let projectId: string;
  let otherProjectId: string;
  let monitorId: string;
  let strangerMonitorId: string;
  let readonlyKey: string;

  before(async () => {
    vigil = await TestVigil.start();
    const owner = await vigil.user('owner@example.com');
    key = await vigil.accountKey(owner, ALL_SCOPES);
    projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Shop' } })).body.project.id;
    otherProjectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Elsewhere' } })).body.project.id;
    monitorId = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: projectId, name: 'Checkout', type: 'JOB_BASIC', schedule: '1h' } })).body.monitor.id;
    strangerMonitorId = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: otherProjectId, name: 'Other', type: 'JOB_BASIC', schedule: '1h' } })).body.monitor.id;
    const reader = await vigil.user('reader@example.com');
    await vigil.member(projectId, reader, 'READONLY');
    readonlyKey = await vigil.accountKey(reader, ALL_SCOPES);
  });
  after(() => vigil.stop());

  const create = (body: unknown, project = projectId, as = key) => vigil.request('POST', `/v1/projects/${project}/status-pages`, { key: as, body });

  it('creates a page unpublished by default, with its monitors and public path, and lists and reads it', async () => {
    const created = await create({ slug: 'shop-status', title: 'Shop status', monitors: [{ monitor_id: monitorId, display_name: 'Payments' }] });
    expect(created.status, created.text).to.equal(201);
    const page = created.body.status_page;
    expect(page).to.deep.include({ project_id: projectId, slug: 'shop-status', title: 'Shop status', description: '', published: false, public_path: '/status/shop-status' });
    expect(page.monitors).to.deep.equal([{ monitor_id: monitorId, display_name: 'Payments' }]);
    expect((await vigil.request('GET', `/v1/projects/${projectId}/status-pages`, { key })).body.status_pages.map((p: { id: string }) => p.id)).to.deep.equal([page.id]);
    expect((await vigil.request('GET', `/v1/status-pages/${page.id}`, { key: readonlyKey })).body.status_page).to.deep.equal(page);
  });

  it('publishes, renames and moves a page with PATCH, freeing its old slug', async () => {
    const page = (await create({ slug: 'moving', title: 'Before' })).body.status_page;
    const patched = await vigil.request('PATCH', `/v1/status-pages/${page.id}`, { key, body: { published: true, title: 'After', slug: 'moved' } });
    expect(patched.status, patched.text).to.equal(200);
    expect(patched.body.status_page).to.deep.include({ published: true, title: 'After', slug: 'moved', public_path: '/status/moved' });
    expect((await create({ slug: 'moving', title: 'Takes the old slug' }, otherProjectId)).status).to.equal(201);
  });

  it('refuses a slug a published page holds, in any project, with 409; and frees it when that page is deleted', async () => {
    const first = (await create({ slug: 'taken', title: 'First', published: true })).body.status_page;
    const again = await create({ slug: 'taken', title: 'Second', published: true }, otherProjectId);
    expect(again.status).to.equal(409);
    expect(again.body.error).to.match(/taken/);
    expect(again.body.error).to.not.contain(projectId);
    const moved = await vigil.request('PATCH', `/v1/status-pages/${(await create({ slug: 'spare', title: 'Spare', published: true })).body.status_page.id}`, { key, body: { slug: 'taken' } });
    expect(moved.status).to.equal(409);
    expect((await vigil.request('DELETE', `/v1/status-pages/${first.id}`, { key })).status).to.equal(204);
    expect((await vigil.request('GET', `/v1/status-pages/${first.id}`, { key })).status).to.equal(404);
    expect((await create({ slug: 'taken', title: 'Second', published: true }, otherProjectId)).status).to.equal(201);
  });

  it('refuses a READONLY member with 403 and a key without manage_monitors with the scope code', async () => {
    const refused = await create({ slug: 'readonly', title: 'No' }, projectId, readonlyKey);
    expect(refused.status).to.equal(403);
    const reader = await vigil.user('scopeless@example.com');
    await vigil.member(projectId, reader, 'MANAGER');
    const readKey = await vigil.accountKey(reader, ['read']);
    const scoped = await create({ slug: 'no-scope', title: 'No' }, projectId, readKey);
    expect(scoped.status).to.equal(403);
    expect(scoped.body.code).to.equal('INSUFFICIENT_API_KEY_SCOPE');
  });

  it('answers 400 naming the field for a bad slug, a missing title, a monitor of another project, a monitor listed twice', async () => {
    const cases: [unknown, RegExp][] = [
      [{ slug: 'Not A Slug', title: 'x' }, /^slug must be/],
      [{ slug: '-edge', title: 'x' }, /^slug must be/],
      [{ slug: 'no-title' }, /^title is required/],
      [{ slug: 'bad-id', title: 'x', monitors: [{ monitor_id: 'nope' }] }, /^monitors\[0\]\.monitor_id must be a UUID/],
      [{ slug: 'stranger', title: 'x', monitors: [{ monitor_id: strangerMonitorId }] }, /^monitors\[0\]\.monitor_id: monitor .* does not exist in this project/],
      [{ slug: 'ghost', title: 'x', monitors: [{ monitor_id: monitorId }, { monitor_id: randomUUID() }] }, /^monitors\[1\]\.monitor_id/],
      [{ slug: 'twice', title: 'x', monitors: [{ monitor_id: monitorId }, { monitor_id: monitorId }] }, /listed twice/],
      [{ slug: 'published', title: 'x', published: 'yes' }, /^published must be/],
    ];
    for (const [body, message] of cases) {
      const response = await create(body);
      expect(response.status, JSON.stringify(body)).to.equal(400);
      expect(response.body.error, JSON.stringify(body)).to.match(message);
    }
  });

  it('reads a page of a project the key cannot reach as not found', async () => {
    const stranger = await vigil.user('stranger@example.com');
    const strangerKey = await vigil.accountKey(stranger, ALL_SCOPES);
    const page = (await create({ slug: 'private-one', title: 'x' })).body.status_page;
    expect((await vigil.request('GET', `/v1/status-pages/${page.id}`, { key: strangerKey })).status).to.equal(404);
    expect((await vigil.request('PATCH', `/v1/status-pages/${page.id}`, { key: strangerKey, body: { published: true } })).status).to.equal(404);
  });
});
