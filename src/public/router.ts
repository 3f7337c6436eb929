import { Router } from '@koa/router';
import type { Context, Next } from 'koa';
import { makeBadge } from 'badge-maker';
import type { MonitorDocument } from '../../projections/monitors.js';
import type { ApiDependencies } from '../web/dependencies.js';
import type { AuthFailureThrottle } from '../web/rate-limit.js';
import type { VigilState } from '../web/state.js';
import { BADGE_KEY_PATTERN, hashBadgeKey } from '../app/badge-keys.js';
import { getProject } from '../queries/projects.js';
import { badgeKeyByHash, publishedStatusPageBySlug } from '../queries/status-pages.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';
import { BADGE_COLOURS, type PublicState, worstState } from './monitor-state.js';
import { statesOf } from '../queries/monitor-state.js';
import { publicNotFound, statusDayPage, statusPage } from './pages/status.js';
import { incidentsOfDay, loadStatusView } from './status-data.js';

/** Nothing but the page's own stylesheet: no script at all, no form, no frame. */
export const PUBLIC_CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'self'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * Badges and status pages change at the pace of pings and checks (a minute or so). A minute's
 * caching lets a README viewed a thousand times (through GitHub's image proxy, or a CDN) cost
 * Vigil a request a minute rather than a thousand, and a badge is never more than a minute behind.
 * A rotated key or an unpublished page stops answering within that minute too.
 */
const PUBLIC_CACHE = 'public, max-age=60';

const SLUG = /^[a-z0-9-]{1,50}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The one answer to anything unknown: the same bytes whether the key, slug or project exists or
 * not. A badge's is the API's `{ error }` (shields.io and scripts read it); a status page's, a page.
 */
function notFound(ctx: Context, as: 'html' | 'json' = 'json'): void {
  ctx.status = 404;
  ctx.set('Cache-Control', 'no-store');
  if (as === 'html') {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = publicNotFound().markup;
  } else {
    ctx.body = { error: 'not found' };
  }
}

async function projectOfBadgeKey(readModels: ReadModelStore, key: string): Promise<string | null> {
  if (!BADGE_KEY_PATTERN.test(key)) return null;
  return (await badgeKeyByHash(readModels, hashBadgeKey(key)))?.project_id ?? null;
}

function svgBadge(ctx: Context, label: string, state: PublicState | null): void {
  ctx.type = 'image/svg+xml; charset=utf-8';
  ctx.body = makeBadge({ label, message: state ?? 'no monitors', color: state ? BADGE_COLOURS[state] : 'lightgrey' });
}

/**
 * What Vigil shows without a key or a session: badges (`/badge/…`, found by the project's badge
 * key) and published status pages (`/status/<slug>`). Each reveals only what it is for: a
 * badge, a monitor's name and state (a project's badge key opens the badge of each of its
 * monitors, by slug: it is published as the project's, not one monitor's); a status page, its chosen monitors under their public names,
 * their daily uptime and their incidents with public notes. Never an id, a ping URL or key, an
 * incident's cause, an internal note or anybody's email.
 */
export function publicRouter(deps: ApiDependencies, throttle: AuthFailureThrottle | null = null): Router<VigilState> {
  const { readModels } = deps;
  const clock = deps.commands.clock;
  const router = new Router<VigilState>();

  /**
   * A badge URL that names nothing is a guess: at a badge key, or, with a key, at the slugs of its
   * project's monitors, which the key would reveal by name and state. It counts against the client's
   * address as a wrong API key does, so slugs cannot be tried in bulk; past the limit it is a 429.
   */
  const badgeNotFound = (ctx: Context) => {
    const throttled = throttle?.recordFailure(ctx.ip) ?? null;
    deps.metrics?.authFailures.inc({ outcome: throttled ? 'throttled' : 'refused' });
    if (!throttled) return notFound(ctx);
    ctx.status = 429;
    ctx.set({ 'Cache-Control': 'no-store', ...throttled.headers });
    ctx.body = { error: throttled.message };
  };

  router.use(async (ctx: Context, next: Next) => {
    ctx.set('Content-Security-Policy', PUBLIC_CONTENT_SECURITY_POLICY);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('X-Frame-Options', 'DENY');
    await next();
  });

  router.get('/badge/:file', async (ctx) => {
    const match = /^(.+)\.svg$/.exec(ctx.params['file'] ?? '');
    const projectId = match ? await projectOfBadgeKey(readModels, match[1]!) : null;
    const project = projectId ? await getProject(readModels, projectId) : null;
    if (!project) return badgeNotFound(ctx);
    const monitors = (await readModels.find<MonitorDocument>('monitors', { project_id: project.id })).map((s) => s.doc);
    ctx.set('Cache-Control', PUBLIC_CACHE);
    svgBadge(ctx, project.name, worstState(await statesOf(readModels, monitors, clock())));
  });

  router.get('/badge/:badgeKey/:file', async (ctx) => {
    const match = /^([a-z0-9-]{1,50})\.(svg|json)$/.exec(ctx.params['file'] ?? '');
    const projectId = match ? await projectOfBadgeKey(readModels, ctx.params['badgeKey'] ?? '') : null;
    const [monitor] = projectId ? await readModels.find<MonitorDocument>('monitors', { project_id: projectId, slug: match![1]! }, { limit: 1 }) : [];
    if (!monitor) return badgeNotFound(ctx);
    const [state] = await statesOf(readModels, [monitor.doc], clock());
    ctx.set('Cache-Control', PUBLIC_CACHE);
    if (match![2] === 'json') {
      // shields.io fetches the endpoint from its own servers; browsers may read it from anywhere.
      ctx.set('Access-Control-Allow-Origin', '*');
      ctx.body = { schemaVersion: 1, label: monitor.doc.name, message: state!, color: BADGE_COLOURS[state!] };
      return;
    }
    svgBadge(ctx, monitor.doc.name, state!);
  });

  const publishedPage = async (slug: string | undefined) => {
    if (slug === undefined || !SLUG.test(slug)) return null;
    return publishedStatusPageBySlug(readModels, slug);
  };

  router.get('/status/:slug', async (ctx) => {
    const page = await publishedPage(ctx.params['slug']);
    if (!page) return notFound(ctx, 'html');
    const now = clock();
    ctx.set('Cache-Control', PUBLIC_CACHE);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = statusPage(await loadStatusView(readModels, page, now), now).markup;
  });

  router.get('/status/:slug/day/:day', async (ctx) => {
    const page = await publishedPage(ctx.params['slug']);
    const day = ctx.params['day'] ?? '';
    if (!page || !DAY.test(day)) return notFound(ctx, 'html');
    const now = clock();
    const view = await loadStatusView(readModels, page, now);
    if (!view.days.includes(day)) return notFound(ctx, 'html');
    ctx.set('Cache-Control', PUBLIC_CACHE);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = statusDayPage(view, day, incidentsOfDay(view, day, now), now).markup;
  });

  return router;
}
