import { type StatusPageEvent, type StatusPageSettings, statusPageDecider } from '../../../src/domain/status-pages/status-page.js';
import { type StatusPageSlugEvent, statusPageSlugDecider } from '../../../src/domain/status-pages/slug-claim.js';
import { deciderSpec } from '../../support/decider.js';

const now = '2026-11-21T10:00:00.000Z';
const status_page_id = 'sp-1';
const project_id = 'p-1';
const settings: StatusPageSettings = { slug: 'acme', title: 'Acme status', description: '', published: false, monitors: [{ monitor_id: 'm-1', display_name: null }] };
const created: StatusPageEvent = { type: 'StatusPageCreated', data: { status_page_id, project_id, ...settings, created_at: now } };

describe('StatusPage', () => {
  const { given } = deciderSpec(statusPageDecider);

  it('is created unpublished with its settings, once however often a retried request asks', () => {
    given([]).when({ type: 'CreateStatusPage', status_page_id, project_id, settings, now }).then([created]);
    given([created]).when({ type: 'CreateStatusPage', status_page_id, project_id, settings, now }).then([]);
  });

  it('refuses a monitor listed twice', () =>
    given([])
      .when({ type: 'CreateStatusPage', status_page_id, project_id, settings: { ...settings, monitors: [settings.monitors[0]!, { monitor_id: 'm-1', display_name: 'Again' }] }, now })
      .thenRefuses('invalid', /listed twice/));

  it('records an update with every setting as it now stands, and nothing for one that changes nothing', () => {
    given([created])
      .when({ type: 'UpdateStatusPage', status_page_id, patch: { published: true }, now })
      .then([{ type: 'StatusPageUpdated', data: { status_page_id, project_id, ...settings, published: true, updated_at: now } }]);
    given([created]).when({ type: 'UpdateStatusPage', status_page_id, patch: { title: 'Acme status' }, now }).then([]);
  });

  it('is deleted once, with the slug it had; then refuses updates as not found', () => {
    const deleted: StatusPageEvent = { type: 'StatusPageDeleted', data: { status_page_id, project_id, slug: 'acme', deleted_at: now } };
    given([created]).when({ type: 'DeleteStatusPage', status_page_id, now }).then([deleted]);
    given([created, deleted]).when({ type: 'DeleteStatusPage', status_page_id, now }).then([]);
    given([created, deleted]).when({ type: 'UpdateStatusPage', status_page_id, patch: { published: true }, now }).thenRefuses('not_found', /status page not found/);
    given([]).when({ type: 'DeleteStatusPage', status_page_id, now }).thenRefuses('not_found', /status page not found/);
  });
});

describe('StatusPageSlugClaim', () => {
  const { given } = deciderSpec(statusPageSlugDecider);
  const claimed: StatusPageSlugEvent = { type: 'StatusPageSlugClaimed', data: { slug: 'acme', status_page_id, project_id, claimed_at: now } };

  it('gives a free slug to the first page that claims it, and again to the same page without a new event', () => {
    given([]).when({ type: 'ClaimStatusPageSlug', slug: 'acme', status_page_id, project_id, holderGone: false, now }).then([claimed]);
    given([claimed]).when({ type: 'ClaimStatusPageSlug', slug: 'acme', status_page_id, project_id, holderGone: false, now }).then([]);
  });

  it('refuses a slug another page holds as a conflict, whatever project either is in, unless that holder is gone', () => {
    given([claimed]).when({ type: 'ClaimStatusPageSlug', slug: 'acme', status_page_id: 'sp-2', project_id: 'p-2', holderGone: false, now }).thenRefuses('conflict', /acme is taken/);
    given([claimed])
      .when({ type: 'ClaimStatusPageSlug', slug: 'acme', status_page_id: 'sp-2', project_id: 'p-2', holderGone: true, now })
      .then([{ type: 'StatusPageSlugClaimed', data: { slug: 'acme', status_page_id: 'sp-2', project_id: 'p-2', claimed_at: now } }]);
  });

  it('is released only by its holder', () => {
    const released: StatusPageSlugEvent = { type: 'StatusPageSlugReleased', data: { slug: 'acme', status_page_id, project_id, released_at: now } };
    given([claimed]).when({ type: 'ReleaseStatusPageSlug', slug: 'acme', status_page_id, project_id, now }).then([released]);
    given([claimed]).when({ type: 'ReleaseStatusPageSlug', slug: 'acme', status_page_id: 'sp-2', project_id, now }).then([]);
    given([claimed, released]).when({ type: 'ClaimStatusPageSlug', slug: 'acme', status_page_id: 'sp-2', project_id, holderGone: false, now }).thenEmits(['StatusPageSlugClaimed']);
  });
});
