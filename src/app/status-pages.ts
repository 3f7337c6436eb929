import { DomainError } from '../domain/errors.js';
import { projectDecider, projectStream } from '../domain/projects/project.js';
import { statusPageSlugDecider, statusPageSlugStream } from '../domain/status-pages/slug-claim.js';
import {
  type StatusPageCommand,
  type StatusPageSettings,
  statusPageDecider,
  statusPageStream,
} from '../domain/status-pages/status-page.js';
import { type Actor, handleCommand, loadState } from './command-handler.js';
import { type CommandContext, nowIso } from './context.js';
import { badInput } from './refusal.js';
import type { MonitorDocument } from '../../projections/monitors.js';
import type { StatusPageMonitor } from '../domain/status-pages/status-page.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';

/**
 * A status page's address is claimed when the page is published, not when it is made: the claim's
 * 409 then says no more than `GET /status/<slug>` answers anyone (a published page is there), and
 * the address of a page not yet published cannot be found by trying names. Unpublished pages of
 * different projects may share a slug; the first to publish holds it.
 */
const heldSlug = (settings: Pick<StatusPageSettings, 'slug' | 'published'> | null): string | null => (settings?.published ? settings.slug : null);

/**
 * How long a claim may wait for its page to be created. The claim and the page are appended one
 * after the other, so a holder whose page is still absent is a creation under way until this
 * much later, when it is one that failed half-way (as for monitor slugs).
 */
const CREATION_UNDER_WAY_MS = 60_000;

const latest = (...positions: (number | null)[]) => {
  const recorded = positions.filter((p): p is number => p !== null);
  return recorded.length > 0 ? Math.max(...recorded) : null;
};

async function runPage(context: CommandContext, command: StatusPageCommand, actor: Actor) {
  return handleCommand(context, statusPageStream(command.status_page_id), statusPageDecider, command, actor);
}

/**
 * Whether the page holding a slug no longer uses it: deleted, moved to another slug, unpublished
 * (which also frees what an unpublished page claimed before claims waited for publishing), its
 * project deleted, or never created.
 */
async function holderGone(context: CommandContext, slug: string, holder: { statusPageId: string; projectId: string; claimedAt: string }): Promise<boolean> {
  const { state } = await loadState(context.events, statusPageStream(holder.statusPageId), statusPageDecider);
  if (state.status === 'deleted') return true;
  if (state.status === 'active') {
    if (heldSlug(state.settings) !== slug) return true;
    const project = await loadState(context.events, projectStream(holder.projectId), projectDecider);
    return project.state.status === 'deleted';
  }
  return context.clock().getTime() - Date.parse(holder.claimedAt) >= CREATION_UNDER_WAY_MS;
}

async function currentHolder(context: CommandContext, slug: string): Promise<{ statusPageId: string; projectId: string; claimedAt: string } | null> {
  const [last] = await context.events.readStream(statusPageSlugStream(slug), { direction: 'backwards', maxCount: 1 });
  if (last?.type !== 'StatusPageSlugClaimed') return null;
  return { statusPageId: String(last.data['status_page_id']), projectId: String(last.data['project_id']), claimedAt: String(last.data['claimed_at']) };
}

async function claimSlug(context: CommandContext, slug: string, statusPageId: string, projectId: string, actor: Actor): Promise<number | null> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      const outcome = await handleCommand(
        context,
        statusPageSlugStream(slug),
        statusPageSlugDecider,
        { type: 'ClaimStatusPageSlug', slug, status_page_id: statusPageId, project_id: projectId, holderGone: attempt > 0, now: nowIso(context) },
        actor,
      );
      return outcome.position;
    } catch (error) {
      if (!(error instanceof DomainError) || attempt > 0) throw error;
      // Taken: only a holder that no longer uses it gives way.
      const holder = await currentHolder(context, slug);
      if (holder === null || !(await holderGone(context, slug, holder))) throw error;
    }
  }
}

async function releaseSlug(context: CommandContext, slug: string, statusPageId: string, projectId: string, actor: Actor): Promise<number | null> {
  const outcome = await handleCommand(
    context,
    statusPageSlugStream(slug),
    statusPageSlugDecider,
    { type: 'ReleaseStatusPageSlug', slug, status_page_id: statusPageId, project_id: projectId, now: nowIso(context) },
    actor,
  );
  return outcome.position;
}

/**
 * Claims the slug of a page created published, then creates the page. A crash between the two
 * leaves a claim without a page, which gives way to the next claim once it is clearly not a
 * creation under way.
 */
export async function createStatusPage(
  context: CommandContext,
  input: { project_id: string; settings: StatusPageSettings },
  actor: Actor,
): Promise<{ statusPageId: string; position: number | null }> {
  const statusPageId = context.newId();
  const held = heldSlug(input.settings);
  if (held !== null) await claimSlug(context, held, statusPageId, input.project_id, actor);
  const outcome = await runPage(context, { type: 'CreateStatusPage', status_page_id: statusPageId, project_id: input.project_id, settings: input.settings, now: nowIso(context) }, actor);
  return { statusPageId, position: outcome.position };
}

/**
 * The slug the page will publish at is claimed before the page moves to it or is published, and
 * the one it gives up (moved, unpublished) released after, so the page never answers at a slug it
 * does not hold; a crash in between leaves the old slug held by a page that no longer uses it,
 * which gives way to the next claim.
 */
export async function updateStatusPage(context: CommandContext, statusPageId: string, patch: Partial<StatusPageSettings>, actor: Actor): Promise<number | null> {
  const { state } = await loadState(context.events, statusPageStream(statusPageId), statusPageDecider);
  const before = state.settings;
  const projectId = state.projectId;
  const heldBefore = heldSlug(before);
  const heldAfter = before === null ? null : heldSlug({ ...before, ...patch });
  const claiming = projectId !== null && heldAfter !== null && heldAfter !== heldBefore;
  const releasing = projectId !== null && heldBefore !== null && heldBefore !== heldAfter;
  const claimed = claiming ? await claimSlug(context, heldAfter, statusPageId, projectId, actor) : null;
  const outcome = await runPage(context, { type: 'UpdateStatusPage', status_page_id: statusPageId, patch, now: nowIso(context) }, actor);
  const released = releasing ? await releaseSlug(context, heldBefore, statusPageId, projectId, actor) : null;
  return latest(claimed, outcome.position, released);
}

/** Deletes the page, then frees its slug; a deletion asked again finishes what a crash left. */
export async function deleteStatusPage(context: CommandContext, statusPageId: string, actor: Actor): Promise<number | null> {
  const outcome = await runPage(context, { type: 'DeleteStatusPage', status_page_id: statusPageId, now: nowIso(context) }, actor);
  const { settings, projectId } = outcome.state;
  const released = settings && projectId ? await releaseSlug(context, settings.slug, statusPageId, projectId, actor) : null;
  return latest(outcome.position, released);
}

/** The monitors a page may show are the project's own; each is named by its index when it is not. */
export async function assertProjectMonitors(readModels: ReadModelStore, projectId: string, monitors: readonly { monitor_id: string }[]): Promise<void> {
  if (monitors.length === 0) return;
  const found = await readModels.find<MonitorDocument>('monitors', { $id: { $in: monitors.map((m) => m.monitor_id) } });
  const ours = new Set(found.filter((s) => s.doc.project_id === projectId).map((s) => s.doc.id));
  const stranger = monitors.findIndex((m) => !ours.has(m.monitor_id));
  if (stranger >= 0) throw badInput(`monitors[${stranger}].monitor_id: monitor ${monitors[stranger]!.monitor_id} does not exist in this project`);
}

export const monitorsOf = (input: readonly { monitor_id: string; display_name?: string | null }[]): StatusPageMonitor[] =>
  input.map((m) => ({ monitor_id: m.monitor_id, display_name: m.display_name?.trim() || null }));
