import * as t from 'io-ts';
import { withJsonSchema } from './json-schema.js';
import { BoundedString, fieldPath } from './validation.js';

/**
 * Control characters a name may not hold: C0 (tab and line breaks too: a name is one line), DEL
 * and C1. ESC and BEL drive terminals (`\x1b]0;…\x07` retitles one), CR rewrites the line it is
 * on: a name shown by `vigil import` or in a log could otherwise forge what is around it.
 */
const CONTROL_IN_LABEL = /[\u0000-\u001f\u007f-\u009f]/u;
/** In text of several lines (a description), tab, LF and CR are what the lines are made of. */
const CONTROL_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/u;

const codePoint = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

function WithoutControls(min: number, max: number, controls: RegExp, kind: string) {
  const bounded = BoundedString(min, max);
  const pattern = kind === 'a name' ? '^[^\\u0000-\\u001f\\u007f-\\u009f]*$' : '^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f]*$';
  return withJsonSchema(
    new t.Type<string, string, unknown>(
      bounded.name,
      (u): u is string => bounded.is(u) && !controls.test(u),
      (u, c) => {
        const found = typeof u === 'string' ? controls.exec(u) : null;
        if (found === null) return bounded.validate(u, c);
        const path = fieldPath(c);
        return t.failure(u, c, `${path === '' ? 'the value' : path} must not contain control characters (${codePoint(found[0])} at character ${found.index + 1}): ${kind} is printable text`);
      },
      t.identity,
    ),
    { type: 'string', ...(min > 0 ? { minLength: min } : {}), maxLength: max, pattern },
  );
}

/** A name, title or label: `min` to `max` characters on one line, no control characters at all. */
export const Label = (min: number, max: number) => WithoutControls(min, max, CONTROL_IN_LABEL, 'a name');

/** A description: may span lines (tab, LF, CR), but holds no other control character. */
export const Text = (min: number, max: number) => WithoutControls(min, max, CONTROL_IN_TEXT, 'a description');
