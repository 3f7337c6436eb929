import * as t from 'io-ts';
import { NullableString } from './fields.js';

const Ids = { status_page_id: t.string, project_id: t.string };
const Settings = {
  slug: t.string,
  title: t.string,
  description: t.string,
  published: t.boolean,
  monitors: t.array(t.type({ monitor_id: t.string, display_name: NullableString })),
};

export const statusPageEventCodecs = {
  StatusPageCreated: t.type({ ...Ids, ...Settings, created_at: t.string }),
  StatusPageUpdated: t.type({ ...Ids, ...Settings, updated_at: t.string }),
  StatusPageDeleted: t.type({ ...Ids, slug: t.string, deleted_at: t.string }),
  StatusPageSlugClaimed: t.type({ slug: t.string, status_page_id: t.string, project_id: t.string, claimed_at: t.string }),
  StatusPageSlugReleased: t.type({ slug: t.string, status_page_id: t.string, project_id: t.string, released_at: t.string }),
};
