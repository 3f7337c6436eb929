import * as t from 'io-ts';
import type { ParameterizedContext } from 'koa';
import { actorOf } from '../../web/actor.js';
import { settled } from '../../web/dependencies.js';
import { HttpError } from '../../web/errors.js';
import { BoundedString } from '../../web/validation.js';
import { passwordHashOf, renameUser, setPassword } from '../../app/accounts.js';
import { hashPassword, verifyPassword } from '../../app/passwords.js';
import { getUser } from '../../queries/identity.js';
import { ACCOUNT_SECTIONS } from '../account-sections.js';
import { sessionForm } from '../forms.js';
import { accountCore } from '../pages/account-core.js';
import { type SignInActivity, accountPage } from '../pages/account.js';
import { signInStream } from '../../domain/identity/sign-ins.js';
import type { FieldErrors } from '../pages/form-fields.js';
import type { ConsoleKit, ConsoleRoutes } from '../kit.js';
import { doneNotice } from '../done-notice.js';
import { type ConsoleState, render } from '../signed-in.js';
import { endSessions, recordFailedSignIn } from '../sign-in-flow.js';
import { accountFieldErrors } from './setup.js';
import { retryAdvice } from './sign-in.js';

const DONE = {
  'session-ended': 'Session ended. That browser is signed out at its next request.',
  renamed: 'Name saved.',
  'password-changed': 'Password changed. Your other sessions have ended.',
} as const;

/** How many entries of the sign-in record the account page shows. */
const ACTIVITY_SHOWN = 20;

const SESSION_REF = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$|^[0-9a-f]{64}$/;

const NameForm = t.intersection([t.type({ name: BoundedString(0, 300) }), t.partial({ csrf_token: t.string })]);
const PasswordForm = t.intersection([t.type({ current_password: t.string, password: t.string, password_again: t.string }), t.partial({ csrf_token: t.string })]);

/** The person's own account: `/account`, name, password, sessions, and the sections other features add (account-sections.ts). */
export const accountRoutes: ConsoleRoutes = (kit: ConsoleKit) => {
  const { router, deps, clock, sessions, signedIn } = kit;

  async function showAccount(ctx: ParameterizedContext<ConsoleState>, errors: FieldErrors = {}, status = 200, typedName?: string): Promise<void> {
    ctx.set('Cache-Control', 'no-store');
    const { session } = ctx.state;
    const [user, open, sections, passwordHash, record] = await Promise.all([
      getUser(deps.readModels, session.userId),
      sessions.listOfUser(session.userId, clock()),
      Promise.all(ACCOUNT_SECTIONS.map((section) => section.render(kit, ctx))),
      passwordHashOf(deps.commands, session.userId),
      deps.commands.events.readStream(signInStream(session.userId), { direction: 'backwards', maxCount: ACTIVITY_SHOWN }),
    ]);
    const activity = record.map((event): SignInActivity => {
      const text = (field: string): string | null => {
        const value = event.data[field];
        return typeof value === 'string' ? value : null;
      };
      const what = event.type === 'UserSignedIn' ? 'signed-in' : event.type === 'UserSignInFailed' ? 'failed' : 'ended';
      return { at: text('signed_in_at') ?? text('failed_at') ?? text('ended_at') ?? event.created, what, method: text('method'), reason: what === 'signed-in' ? null : text('reason'), clientAddress: text('client_address') };
    });
    const name = typedName ?? (user ? `${user.first_name} ${user.last_name}`.trim() : '');
    const core = accountCore({ viewer: ctx.state.viewer, name, hasPassword: passwordHash !== null, keySession: session.method === 'api_key', errors });
    render(ctx, accountPage({ viewer: ctx.state.viewer, notice: doneNotice(ctx, DONE), user, sessions: open, currentRef: session.ref, now: clock(), sections, core, activity }), status);
  }

  router.get('/account', signedIn, async (ctx) => showAccount(ctx));

  router.post('/account/name', signedIn, async (ctx) => {
    const form = sessionForm(ctx, NameForm);
    const errors = accountFieldErrors({ name: form.name });
    if (Object.keys(errors).length > 0) return showAccount(ctx, errors, 400, form.name);
    const { position } = await renameUser(deps.commands, { user_id: ctx.state.session.userId, first_name: form.name.trim(), last_name: '' }, actorOf(ctx.state));
    await settled(deps, position);
    ctx.status = 303;
    ctx.redirect('/account?done=renamed#profile');
  });

  router.post('/account/password', signedIn, async (ctx) => {
    const form = sessionForm(ctx, PasswordForm);
    const { session } = ctx.state;
    if (session.method === 'api_key') throw new HttpError(403, 'a session opened with an API key cannot change the password; sign in with your password');
    const errors: Record<string, string> = { ...(form.current_password === '' ? { 'current-password': 'Enter your current password' } : {}), ...accountFieldErrors({ password: form.password, password_again: form.password_again }) };
    if (Object.keys(errors).length > 0) return showAccount(ctx, errors, 400);
    const currentHash = await passwordHashOf(deps.commands, session.userId);
    if (!(await verifyPassword(form.current_password, currentHash))) {
      // Counted as a failed sign-in: a session left open is no way to guess the password.
      const wait = await recordFailedSignIn(kit, ctx, { userId: session.userId, method: 'password', reason: 'wrong_password' });
      if (wait !== null) ctx.set('Retry-After', String(wait));
      return showAccount(ctx, { 'current-password': wait === null ? 'Your current password is wrong' : `Too many wrong passwords. ${retryAdvice(wait)}` }, wait === null ? 400 : 429);
    }
    await setPassword(deps.commands, { user_id: session.userId, password_hash: await hashPassword(form.password), reason: 'changed', current_hash: currentHash }, actorOf(ctx.state));
    const ended = await sessions.deleteOfUser(session.userId, session.idHash);
    await endSessions(kit, ctx, session.userId, ended, 'password_changed');
    ctx.status = 303;
    ctx.redirect('/account?done=password-changed#password-heading');
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
