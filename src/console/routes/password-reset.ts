import * as t from 'io-ts';
import type { Context } from 'koa';
import { HttpError } from '../../web/errors.js';
import { AuthFailureThrottle } from '../../web/rate-limit.js';
import { BoundedString, decode } from '../../web/validation.js';
import { credentialsOf, hashLinkToken, requestPasswordReset, resetLinkIsLive, setPassword } from '../../app/accounts.js';
import { sendResetMail } from '../../app/account-mail.js';
import type { Actor } from '../../app/command-handler.js';
import { hashPassword } from '../../app/passwords.js';
import { normalizeEmail } from '../../domain/identity/email-claim.js';
import { readForm } from '../forms.js';
import { forgotPasswordPage, resetPasswordPage } from '../pages/password-reset.js';
import type { ConsoleKit, ConsoleRoutes } from '../kit.js';
import { preSessionCsrfMatches, preSessionCsrfToken } from '../session.js';
import { accountThrottleKey, completeSignIn, endSessions } from '../sign-in-flow.js';
import { render } from '../signed-in.js';
import { accountFieldErrors } from './setup.js';

const ForgotForm = t.intersection([t.type({ email: BoundedString(0, 320) }), t.partial({ csrf_token: t.string })]);
const ResetQuery = t.partial({ token: BoundedString(0, 200) });
const ResetForm = t.intersection([t.type({ token: BoundedString(0, 200), password: t.string, password_again: t.string }), t.partial({ csrf_token: t.string })]);

/** Reset mails one email may be sent per window: enough to retry, too few to flood someone's inbox. */
export const RESET_MAILS = { authFailures: 3, authFailureWindowSeconds: 15 * 60 } as const;

function requestActor(ctx: Context, cause: string): Actor {
  const requestId: unknown = ctx.state['requestId'];
  return { kind: 'system', user_id: null, api_key_id: null, request_id: typeof requestId === 'string' ? requestId : null, cause, request_ip: ctx.ip, request_ua: ctx.get('User-Agent') || null };
}

/**
 * "Forgot your password?": with SMTP (VIGIL_SMTP_HOST) and VIGIL_PUBLIC_URL set, a one-time link
 * by email; otherwise the page says to ask an operator (`vigil users reset-password`). The link's
 * origin is VIGIL_PUBLIC_URL, never the request's Host, which anyone can write (a link pointing
 * elsewhere would hand its token to whoever answers there).
 */
export const passwordResetRoutes: ConsoleRoutes = (kit: ConsoleKit) => {
  const { router, deps, clock } = kit;
  const smtp = deps.config.smtp;
  const publicUrl = deps.config.publicUrl ?? null;
  const canMail = smtp !== null && publicUrl !== null;
  const mailsPerEmail = new AuthFailureThrottle(RESET_MAILS, clock);

  router.get('/forgot-password', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    render(ctx, forgotPasswordPage({ canMail, csrfToken: preSessionCsrfToken(ctx), errors: {}, email: '', sent: false }));
  });

  router.post('/forgot-password', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const form = await readForm(ctx, ForgotForm);
    const email = form.email.trim();
    const again = (status: number, errors: Record<string, string>) => render(ctx, forgotPasswordPage({ canMail, csrfToken: preSessionCsrfToken(ctx), errors, email, sent: false }), status);
    if (!canMail) return again(200, {});
    if (!preSessionCsrfMatches(ctx, form.csrf_token)) return again(403, { email: 'This form has expired: send it again' });
    const errors = accountFieldErrors({ email });
    if (Object.keys(errors).length > 0) return again(400, errors);
    // Past the limit, or for an email that names no one, nothing is sent; the answer is the same.
    // The lookup, the record and the mail happen after the answer, so its timing says nothing either.
    if (mailsPerEmail.recordFailure(accountThrottleKey(email)) === null) {
      const actor = requestActor(ctx, 'password_reset_requested');
      void (async () => {
        const credentials = await credentialsOf(deps.commands, email);
        if (credentials === null) return;
        const { token } = await requestPasswordReset(deps.commands, credentials.userId, 'email', actor);
        await sendResetMail(smtp, normalizeEmail(email), `${publicUrl}/reset-password?token=${token}`);
      })().catch((error: unknown) => deps.logger.error({ err: error }, 'a password reset mail was not sent'));
    }
    render(ctx, forgotPasswordPage({ canMail, csrfToken: preSessionCsrfToken(ctx), errors: {}, email, sent: true }));
  });

  const deadLink = () => new HttpError(404, 'this reset link has expired or has been used. Ask for a new one from the sign-in page (Forgot your password?) or from an operator');

  router.get('/reset-password', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    // The token is in the URL: no other site learns it from a Referer.
    ctx.set('Referrer-Policy', 'no-referrer');
    const { token } = decode(ResetQuery, ctx.query, 'query');
    if (token === undefined || (await resetLinkIsLive(deps.commands, token)) === null) throw deadLink();
    render(ctx, resetPasswordPage({ token, csrfToken: preSessionCsrfToken(ctx), errors: {} }));
  });

  router.post('/reset-password', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const form = await readForm(ctx, ResetForm);
    const userId = await resetLinkIsLive(deps.commands, form.token);
    if (userId === null) throw deadLink();
    if (!preSessionCsrfMatches(ctx, form.csrf_token)) throw new HttpError(403, 'this form has expired; open the reset link again');
    const errors = accountFieldErrors({ password: form.password, password_again: form.password_again });
    if (Object.keys(errors).length > 0) return render(ctx, resetPasswordPage({ token: form.token, csrfToken: preSessionCsrfToken(ctx), errors }), 400);
    // The decider refuses a link used meanwhile (a second submission): it works once.
    await setPassword(deps.commands, { user_id: userId, password_hash: await hashPassword(form.password), reason: 'reset', reset_token_hash: hashLinkToken(form.token) }, requestActor(ctx, 'password_reset'));
    const ended = await kit.sessions.deleteOfUser(userId);
    await endSessions(kit, ctx, userId, ended, 'password_reset', requestActor(ctx, 'password_reset'));
    await completeSignIn(kit, ctx, { userId, method: 'reset', next: '/' });
  });
};
