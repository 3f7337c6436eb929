/** Project bodies show timestamps without milliseconds: `2026-11-21T14:29:00Z`. */
export function withoutMilliseconds(iso: string): string {
  return iso.replace(/\.\d{3}Z$/, 'Z');
}
