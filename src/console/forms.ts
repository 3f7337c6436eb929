import * as t from 'io-ts';
import type { Context } from 'koa';
import { koaBody } from 'koa-body';
import { HttpError } from '../web/errors.js';
import { BoundedString, decode } from '../web/validation.js';

/**
 * The largest form the console takes: its forms carry a key, a token and a path, and an incident
 * note of up to 4000 characters (as many as 9 bytes each once UTF-8 is percent-encoded).
 */
const FORM_LIMIT = '40kb';
const parseForm = koaBody({ urlencoded: true, formLimit: FORM_LIMIT, json: false, text: false, multipart: false });

/** Every state-changing form but sign-in's. */
export const ActionForm = t.partial({ csrf_token: t.string });

export const SignInForm = t.intersection([t.type({ api_key: t.string }), t.partial({ next: BoundedString(0, 200), csrf_token: t.string })]);

/** Passwords up to 1024 characters are taken (passwords.ts); a longer value is cut, then fails to match. */
export const PasswordSignInForm = t.intersection([
  t.type({ email: BoundedString(0, 320), password: t.string }),
  t.partial({ next: BoundedString(0, 200), csrf_token: t.string }),
]);

/**
 * A POSTed form, decoded with its codec: one sent from another site is refused first. Browsers say
 * where a request comes from in Sec-Fetch-Site (unlike Origin, it reads the same behind a proxy);
 * the per-session token stays the real defence, this one also covers the sign-in form, which has none.
 */
export async function readForm<A>(ctx: Context, codec: t.Decoder<unknown, A>): Promise<A> {
  const site = ctx.get('Sec-Fetch-Site');
  if (site !== '' && site !== 'same-origin') throw new HttpError(403, 'forms are only accepted from this site’s own pages');
  if (!ctx.is('application/x-www-form-urlencoded')) throw new HttpError(415, 'forms must be sent as application/x-www-form-urlencoded');
  await parseForm(ctx, async () => undefined);
  return decode(codec, ctx.request.body, 'form');
}

/** A form posted behind the session check, which has read the body already (to check its CSRF token): decoded with its codec. */
export function sessionForm<A>(ctx: Context, codec: t.Decoder<unknown, A>): A {
  return decode(codec, ctx.request.body, 'form');
}

/** A form field that may come once or repeated (ticked checkboxes, rows), as a list of strings. */
export const formList = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : []);

/** A form field as text: what was typed, or '' for a missing or repeated one. */
export const formText = (value: unknown): string => (typeof value === 'string' ? value : '');
