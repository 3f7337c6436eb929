import * as t from 'io-ts';
import type { Context } from 'koa';
import { decode } from '../web/validation.js';

/** What a POST did, shown once on the page it returns to. */
const DONE = {
  acknowledged: 'Incident acknowledged.',
  resolved: 'Incident resolved.',
  paused: 'Monitoring paused.',
  resumed: 'Monitoring resumed.',
  noted: 'Note added.',
  postmortem: 'Postmortem saved.',
  created: 'Monitor created.',
  updated: 'Changes saved.',
  'monitor-deleted': 'Monitor deleted.',
} as const;

const DoneQuery = t.partial({ done: t.string });

/** The notice a page shows after a POST redirected to it with `?done=<key>`: one of `notices`, never free text. */
export function doneNotice(ctx: Context, notices: Readonly<Record<string, string>> = DONE): string | null {
  const { done } = decode(DoneQuery, ctx.query, 'query');
  return done !== undefined && Object.hasOwn(notices, done) ? (notices[done] ?? null) : null;
}
