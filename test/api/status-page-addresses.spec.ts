import { expect } from 'chai';
import { handleCommand } from '../../src/app/command-handler.js';
import { statusPageSlugDecider, statusPageSlugStream } from '../../src/domain/status-pages/slug-claim.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

const SYSTEM = { kind: 'system', user_id: null, api_key_id: null, request_id: null } as const;

/**
 * Whether a status page address is taken, as another project's manager can learn it (the 409 of a
 * claim) and as anyone can (`GET /status/<slug>`): the two must say the same.
 */
describe('Status page addresses', function () {
  this.timeout(60_000);
  let vigil: TestVigil;
  const ours = {} as { key: string; project: string };
  const theirs = {} as { key: string; project: string };

  before(async () => {
    vigil = await TestVigil.start();
    for (const [who, side] of [['ours', ours], ['theirs', theirs]] as const) {
      const user = await vigil.user(`${who}@example.com`);
      side.project = await vigil.project(user, who);
      side.key = await vigil.accountKey(user, ALL_SCOPES);
    }
  });
  after(() => vigil.stop());

  const create = (side: typeof ours, body: Record<string, unknown>) => vigil.request('POST', `/v1/projects/${side.project}/status-pages`, { key: side.key, body: { title: 'Status', ...body } });
  const publish = (side: typeof ours, id: string, published = true) => vigil.request('PATCH', `/v1/status-pages/${id}`, { key: side.key, body: { published } });
  const publicAnswer = async (slug: string) => {
    const response = await fetch(`${vigil.url}/status/${slug}`);
    return { status: response.status, body: await response.text() };
  };

  it('does not tell another project that an unpublished page holds an address: its claim succeeds, as for a free one', async () => {
    expect((await create(theirs, { slug: 'acme-takeover' })).status).to.equal(201);
    const free = await publicAnswer('nobody-has-this');
    expect(await publicAnswer('acme-takeover')).to.deep.equal(free);
    const claimed = await create(ours, { slug: 'acme-takeover' });
    expect(claimed.status, claimed.text).to.equal(201);
    expect((await create(ours, { slug: 'nobody-has-this' })).status).to.equal(201);
  });

  it('answers 409 for an address exactly when its public URL shows a page, and frees it when the page is unpublished', async () => {
    const mine = (await create(ours, { slug: 'shared-name' })).body.status_page.id;
    const other = (await create(theirs, { slug: 'shared-name' })).body.status_page.id;
    expect((await publicAnswer('shared-name')).status).to.equal(404);

    expect((await publish(theirs, other)).status).to.equal(200);
    expect((await publicAnswer('shared-name')).status).to.equal(200);
    const refused = await publish(ours, mine);
    expect(refused.status).to.equal(409);
    expect(refused.body.error).to.match(/taken/);
    expect((await create(ours, { slug: 'shared-name', published: true })).status).to.equal(409);
    expect((await publicAnswer('shared-name')).body, 'still the page that holds it').to.contain('Status');

    expect((await publish(theirs, other, false)).status).to.equal(200);
    expect((await publicAnswer('shared-name')).status).to.equal(404);
    expect((await publish(ours, mine)).status).to.equal(200);
    expect((await publicAnswer('shared-name')).status).to.equal(200);
  });

  it('lets a claim an unpublished page made before claims waited for publishing give way', async () => {
    const old = (await create(theirs, { slug: 'claimed-long-ago' })).body.status_page.id;
    await handleCommand(vigil.commands, statusPageSlugStream('claimed-long-ago'), statusPageSlugDecider, {
      type: 'ClaimStatusPageSlug', slug: 'claimed-long-ago', status_page_id: old, project_id: theirs.project, holderGone: false, now: vigil.clock.now().toISOString(),
    }, SYSTEM);
    const published = await create(ours, { slug: 'claimed-long-ago', published: true });
    expect(published.status, published.text).to.equal(201);
    expect((await publicAnswer('claimed-long-ago')).status).to.equal(200);
  });
});
