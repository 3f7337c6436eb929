import * as t from 'io-ts';
import type { Context } from 'koa';
import { settled } from '../../web/dependencies.js';
import { HttpError } from '../../web/errors.js';
import { BoundedString, decode } from '../../web/validation.js';
import { createFirstAccount } from '../../app/accounts.js';
import type { Actor } from '../../app/command-handler.js';
import { hashPassword, passwordProblem } from '../../app/passwords.js';
import { anyUserExists } from '../../app/setup-link.js';
import { readForm } from '../forms.js';
import type { FieldErrors } from '../pages/form-fields.js';
import { setupPage } from '../pages/setup.js';
import type { ConsoleKit, ConsoleRoutes } from '../kit.js';
import { preSessionCsrfMatches, preSessionCsrfToken } from '../session.js';
import { completeSignIn } from '../sign-in-flow.js';
import { render } from '../signed-in.js';

const SetupQuery = t.partial({ token: BoundedString(0, 100) });
const SetupForm = t.intersection([
  t.type({ token: BoundedString(0, 100), email: BoundedString(0, 320), name: BoundedString(0, 300), password: t.string, password_again: t.string }),
  t.partial({ csrf_token: t.string }),
]);

/** The name the first project gets, as `vigil bootstrap` names it. */
export const FIRST_PROJECT_NAME = 'My project';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** What is wrong with the account's fields, by field id; nothing when all is well. */
export function accountFieldErrors(fields: { email?: string; name?: string; password?: string; password_again?: string }): Record<string, string> {
  const errors: Record<string, string> = {};
  if (fields.name !== undefined) {
    if (fields.name.trim() === '') errors['name'] = 'Enter your name';
    else if (fields.name.trim().length > 100) errors['name'] = 'Use at most 100 characters for your name';
  }
  if (fields.email !== undefined) {
    if (fields.email.trim() === '') errors['email'] = 'Enter your email address';
    else if (!EMAIL.test(fields.email.trim()) || fields.email.trim().length > 254) errors['email'] = 'Enter an email address like name@example.com';
  }
  if (fields.password !== undefined) {
    const problem = fields.password === '' ? 'Enter a password' : passwordProblem(fields.password);
    if (problem) errors['password'] = problem;
    else if (fields.password_again !== undefined && fields.password_again !== fields.password) errors['password-again'] = 'The two passwords differ: type the same one twice';
  }
  return errors;
}

function setupActor(ctx: Context): Actor {
  const requestId: unknown = ctx.state['requestId'];
  return { kind: 'user', user_id: null, api_key_id: null, request_id: typeof requestId === 'string' ? requestId : null, cause: 'setup', request_ip: ctx.ip, request_ua: ctx.get('User-Agent') || null };
}

/** First run: `/setup?token=…`, the link the server printed while no account exists. */
export const setupRoutes: ConsoleRoutes = (kit: ConsoleKit) => {
  const { router, deps } = kit;

  /** Refused (an HTML page) unless a link is waiting and no account exists. */
  async function mustBeOpen(): Promise<void> {
    if (!deps.setup?.open || (await anyUserExists(deps.readModels))) {
      throw new HttpError(404, 'there is nothing to set up: Vigil has an account already. Sign in instead, or ask its owner to invite you');
    }
  }
  const notTheLink = () => new HttpError(403, 'this setup link is not valid. Use the link the server printed when it started; a new one is printed at every start until the first account exists');

  router.get('/setup', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Referrer-Policy', 'no-referrer');
    await mustBeOpen();
    const { token } = decode(SetupQuery, ctx.query, 'query');
    if (token === undefined || !deps.setup!.matches(token)) throw notTheLink();
    render(ctx, setupPage({ token, csrfToken: preSessionCsrfToken(ctx), errors: {}, email: '', name: '' }));
  });

  router.post('/setup', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const form = await readForm(ctx, SetupForm);
    await mustBeOpen();
    if (!deps.setup!.matches(form.token)) throw notTheLink();
    if (!preSessionCsrfMatches(ctx, form.csrf_token)) throw new HttpError(403, 'this form has expired; open the setup link again');
    const errors: FieldErrors = accountFieldErrors(form);
    if (Object.keys(errors).length > 0) {
      return render(ctx, setupPage({ token: form.token, csrfToken: preSessionCsrfToken(ctx), errors, email: form.email, name: form.name }), 400);
    }
    // Taken before anything is written: a second submission, however close, finds it gone.
    if (!deps.setup!.consume(form.token)) throw notTheLink();
    const { userId, position } = await createFirstAccount(
      deps.commands,
      { email: form.email.trim(), first_name: form.name.trim(), last_name: '', password_hash: await hashPassword(form.password), project_name: FIRST_PROJECT_NAME },
      setupActor(ctx),
    );
    await settled(deps, position);
    await completeSignIn(kit, ctx, { userId, method: 'setup', next: '/' });
  });
};
