/** C0, DEL and C1: what a terminal may act on rather than show. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/gu;

/** `^[` for ESC, `^G` for BEL, `^?` for DEL, `M-^[` for CSI (U+009B): as `cat -v` shows them. */
function caret(char: string): string {
  const code = char.charCodeAt(0);
  if (code === 0x7f) return '^?';
  if (code >= 0x80) return `M-${caret(String.fromCharCode(code - 0x80))}`;
  return `^${String.fromCharCode(code + 0x40)}`;
}

/**
 * Text someone else wrote (a name from an import file or from the store, an error quoting it) as
 * the CLI prints it: its control characters made visible, so that a name cannot retitle the
 * terminal (`\x1b]0;…\x07`), move the cursor or rewrite the line (`\r`) it is printed on.
 * Every place the CLI prints such text in lines for people goes through this.
 */
export function visible(text: string): string {
  return text.replace(CONTROL, caret);
}

/** The same for a message of several lines the CLI wrote itself (an error and its advice): its line breaks kept. */
export function visibleLines(text: string): string {
  return text.split('\n').map(visible).join('\n');
}

/**
 * A value as one line of JSON for the CLI's output. JSON.stringify escapes C0 but leaves DEL and
 * C1 raw; they are escaped too (`\u009b`), which any JSON reader reads back as the same string.
 */
export function jsonLine(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\u009f]/gu, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
