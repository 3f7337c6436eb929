import { HttpError } from '../../api/errors.js';
import { getUser } from '../../queries/identity.js';
import { ACCOUNT_SECTIONS } from '../account-sections.js';
import { accountPage } from '../pages/account.js';
import { type ConsoleKit, type ConsoleRoutes, doneNotice } from '../routes.js';
import { render } from '../signed-in.js';
import { endSessions } from '../sign-in-flow.js';

const DONE = {
  'session-ended': 'Session ended. That browser is signed out at its next request.',
} as const;

const SESSION_REF = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$|^[0-9a-f]{64}$/;

/** The person's own account: `/account`, its sessions, and the sections other features add (account-sections.ts). */
export const accountRoutes: ConsoleRoutes = (kit: ConsoleKit) => {
  const { router, deps, clock, sessions, signedIn } = kit;

  router.get('/account', signedIn, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const { session } = ctx.state;
    const [user, open, sections] = await Promise.all([
      getUser(deps.readModels, session.userId),
      sessions.listOfUser(session.userId, clock()),
      Promise.all(ACCOUNT_SECTIONS.map((section) => section.render(kit, ctx))),
    ]);
    render(ctx, accountPage({ viewer: ctx.state.viewer, notice: doneNotice(ctx, DONE), user, sessions: open, currentRef: session.ref, now: clock(), sections }));
  });

  router.post('/account/sessions/:ref/end', signedIn, async (ctx) => {
    const ref = ctx.params['ref'] ?? '';
    if (!SESSION_REF.test(ref)) throw new HttpError(404, 'session not found');
    const { session } = ctx.state;
    const ended = await sessions.deleteByRef(session.userId, ref);
    if (ended.length === 0) throw new HttpError(404, 'session not found; it may have ended already');
    await endSessions(kit, ctx, session.userId, ended, 'ended_by_user');
    ctx.status = 303;
    ctx.redirect('/account?done=session-ended#sessions');
  });
};
