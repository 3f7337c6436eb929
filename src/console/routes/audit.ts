import { Readable } from 'node:stream';
import type { AuditEventDocument } from '../../../projections/audit-events.js';
import { LATEST_CHECK, type LogIntegrityDocument, projectCheckId } from '../../../projections/log-integrity.js';
import { actorOf } from '../../web/actor.js';
import { settled } from '../../web/dependencies.js';
import { HttpError, badRequest } from '../../web/errors.js';
import { gate } from '../../app/gate.js';
import { pathId } from '../../web/validation.js';
import { eventBody } from '../../web/representations/history.js';
import { storeLogCheck } from '../../audit/log-check.js';
import { integrityCheck } from '../../audit/verify-log.js';
import { recordIntegrityCheck } from '../../app/log-integrity.js';
import { getUser } from '../../queries/identity.js';
import { getProject } from '../../queries/projects.js';
import type { ReadModelStore } from '../../readstore/read-model-store.js';
import { auditPage } from '../pages/audit.js';
import type { ConsoleKit, ConsoleRoutes } from '../kit.js';
import { doneNotice } from '../done-notice.js';
import { render } from '../signed-in.js';

const READ = { scope: 'read' } as const;

/**
 * Who may start a check of the whole log from the console. The log is the instance's, not the
 * project's, and a check reads every event (on its own thread, one at a time): an owner of a
 * project, with an account key that may manage projects. It reveals nothing of other projects:
 * the page shows whether the chain holds and the first broken position, never what is there,
 * and the check is shown on this project's page only.
 */
export const VERIFY_LOG = { scope: 'manage_projects', accountKeyOnly: true, minimumRole: 'OWNER' } as const;

/** Events read from the read model at a time while an export streams. */
const EXPORT_BATCH = 500;

/**
 * The project's events as `GET /v1/projects/<id>/events` lists them (the same bodies, secrets
 * redacted, oldest first), every page of them, one JSON object a line: read a batch at a time as
 * the browser takes them, so a long history is never held whole.
 */
function exportLines(readModels: ReadModelStore, projectId: string): Readable {
  async function* lines() {
    for (let skip = 0; ; skip += EXPORT_BATCH) {
      const batch = await readModels.find<AuditEventDocument>('audit_events', { project_id: projectId }, { sort: [['position', 1]], skip, limit: EXPORT_BATCH });
      if (batch.length > 0) yield batch.map((s) => `${JSON.stringify(eventBody(s.doc))}\n`).join('');
      if (batch.length < EXPORT_BATCH) return;
    }
  }
  return Readable.from(lines());
}

const DONE = { verified: 'The log was checked: the result is below.' } as const;

/**
 * The audit page of a project: the last check of the log's hash chain that concerns it (the
 * operator's `vigil verify`, or one run from this page), and where to export its events. The log's
 * head is not shown: its position, time and hashes move with every other project's events, so a
 * page reloaded now and then would tell a member when and how much the other projects' monitors
 * were pinged. It is the operator's, and `vigil verify` prints it.
 */
export const auditRoutes: ConsoleRoutes = (kit: ConsoleKit) => {
  const { router, deps, signedIn, may, clock } = kit;
  const { readModels, commands } = deps;
  const logCheck = deps.logCheck ?? storeLogCheck();
  const chained = deps.logCheck !== undefined;

  router.get('/projects/:projectId/audit', signedIn, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const projectId = pathId(ctx.params['projectId'], 'project');
    await gate(readModels, ctx.state.caller, READ, projectId);
    const project = await getProject(readModels, projectId);
    if (!project) throw new HttpError(404, 'project not found');
    const [operators, own, canVerify] = await Promise.all([
      readModels.get<LogIntegrityDocument>('log_integrity', LATEST_CHECK),
      readModels.get<LogIntegrityDocument>('log_integrity', projectCheckId(projectId)),
      may(ctx.state.caller, VERIFY_LOG, projectId),
    ]);
    const last = [operators?.doc, own?.doc].reduce<LogIntegrityDocument | null>((newest, c) => (c && (!newest || c.position > newest.position) ? c : newest), null);
    // Only a check run from this page names who ran it: one of this project's members.
    const checker = last?.project_id === projectId && last.user_id ? await getUser(readModels, last.user_id) : null;
    render(ctx, auditPage({
      viewer: ctx.state.viewer, project, notice: doneNotice(ctx, DONE), last, checkedBy: checker?.email ?? null,
      chained, canVerify, origin: `${ctx.protocol}://${ctx.host}`, now: clock(),
    }));
  });

  // The export link of the page: the API's export, gated by the session's caller rather than an
  // X-API-Key header a browser cannot send, and saved as a file rather than shown as JSON.
  router.get('/projects/:projectId/audit/export', signedIn, async (ctx) => {
    const projectId = pathId(ctx.params['projectId'], 'project');
    await gate(readModels, ctx.state.caller, READ, projectId);
    if (!(await getProject(readModels, projectId))) throw new HttpError(404, 'project not found');
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Disposition', `attachment; filename="vigil-project-${projectId}-events.ndjson"`);
    ctx.type = 'application/x-ndjson; charset=utf-8';
    ctx.body = exportLines(readModels, projectId);
  });

  router.post('/projects/:projectId/audit/verify', signedIn, async (ctx) => {
    const projectId = pathId(ctx.params['projectId'], 'project');
    await gate(readModels, ctx.state.caller, VERIFY_LOG, projectId);
    const verification = await logCheck.verify();
    if (!verification) throw badRequest('this event store keeps no hash chain to verify; vigil verify compares the read models with a replay');
    const check = integrityCheck(verification, null, clock(), 'console', ctx.state.caller.userId, projectId);
    const outcome = await recordIntegrityCheck(commands, check, actorOf(ctx.state));
    await settled(deps, outcome.position);
    ctx.status = 303;
    ctx.redirect(`/projects/${projectId}/audit?done=verified`);
  });
};
