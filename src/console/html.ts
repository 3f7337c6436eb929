/**
 * The console's one way to write markup. Every interpolation in an `html` template is escaped,
 * unless it is itself markup built by `html` (or, once reviewed, `trustedHtml`): user-written text
 * (a monitor's name, a ping's payload) can never become markup, whatever it holds.
 */
export class Html {
  constructor(readonly markup: string) {}
  toString(): string {
    return this.markup;
  }
}

/** What a template takes: text (escaped), markup, nothing (null, undefined, false), or a list of these. */
export type Fragment = Html | string | number | null | undefined | false | readonly Fragment[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Safe in text and in quoted attribute values alike. */
export function escapeHtml(text: string): string {
  // Most values (ids, times, numbers, paths) have nothing to escape: test before rewriting.
  return SPECIAL.test(text) ? text.replace(SPECIALS, (c) => ESCAPES[c]!) : text;
}

const SPECIAL = /[&<>"']/;
const SPECIALS = /[&<>"']/g;

function render(fragment: Fragment): string {
  if (fragment === null || fragment === undefined || fragment === false) return '';
  if (fragment instanceof Html) return fragment.markup;
  if (Array.isArray(fragment)) return fragment.map(render).join('');
  return escapeHtml(String(fragment));
}

export function html(strings: TemplateStringsArray, ...values: readonly Fragment[]): Html {
  let markup = strings[0]!;
  values.forEach((value, i) => {
    markup += render(value) + strings[i + 1]!;
  });
  return new Html(markup);
}

/**
 * Markup taken as it is. The only way around the escaping: each use must build its text from
 * nothing a user wrote (the page's doctype is the one today).
 */
export function trustedHtml(markup: string): Html {
  return new Html(markup);
}
