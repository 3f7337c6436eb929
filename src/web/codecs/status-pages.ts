import * as t from 'io-ts';
import { MAX_STATUS_PAGE_MONITORS } from '../../domain/status-pages/status-page.js';
import { withRefinementKeywords } from '../json-schema.js';
import { BodyOf, Checked, Uuid } from '../validation.js';
import { Label, Text } from '../labels.js';

/** A public address: lowercase letters, digits and single inner hyphens (no `--`, no hyphen at either end). */
const SLUG = /^[a-z0-9](?:-?[a-z0-9])*$/;
export const StatusPageSlug = Checked<string>(
  'a status page slug',
  (u) =>
    typeof u === 'string' && u.length >= 2 && u.length <= 50 && SLUG.test(u)
      ? { ok: true, value: u }
      : { ok: false, message: 'slug must be 2 to 50 lowercase letters, digits and single hyphens, starting and ending with a letter or digit' },
  { type: 'string', minLength: 2, maxLength: 50, pattern: '^[a-z0-9](?:-?[a-z0-9])*$' },
);

export const STATUS_PAGE_TITLE = Label(1, 100);
export const STATUS_PAGE_DESCRIPTION = Text(0, 500);

const StatusPageMonitorInput = BodyOf({ monitor_id: Uuid }, { display_name: t.union([Label(1, 100), t.null]) }, 'a monitor to show ({ monitor_id, display_name? })');

const Monitors = withRefinementKeywords(
  t.refinement(t.array(StatusPageMonitorInput), (items) => items.length <= MAX_STATUS_PAGE_MONITORS, `an array of at most ${MAX_STATUS_PAGE_MONITORS} items`),
  { maxItems: MAX_STATUS_PAGE_MONITORS },
);

export const CreateStatusPageBody = BodyOf(
  { slug: StatusPageSlug, title: STATUS_PAGE_TITLE },
  { description: STATUS_PAGE_DESCRIPTION, published: t.boolean, monitors: Monitors },
);

export const UpdateStatusPageBody = BodyOf({}, { slug: StatusPageSlug, title: STATUS_PAGE_TITLE, description: STATUS_PAGE_DESCRIPTION, published: t.boolean, monitors: Monitors });
