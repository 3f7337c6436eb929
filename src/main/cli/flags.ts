import { parseArgs } from 'node:util';
import { KEY_LIFETIME_DAYS } from '../../domain/identity/user.js';
import { jsonLine, visible } from '../../cli/visible.js';
import { type CliIo, UsageError } from './cli-io.js';

export function options<T extends Record<string, { type: 'string' | 'boolean' }>>(args: readonly string[], spec: T) {
  try {
    return parseArgs({ args: [...args], options: spec, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

export function required(value: string | undefined, flag: string): string {
  if (value === undefined || value === '') throw new UsageError(`--${flag} is required`);
  return value;
}

export function email(value: string | undefined): string {
  const given = required(value, 'email');
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(given)) throw new UsageError(`--email must be an email address, not ${given}`);
  return given;
}

/** Checked here, before anything is written, as a mistyped flag is no reason to open the store. */
export function days(value: string | undefined, fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  const given = required(value, 'days');
  const { min, max } = KEY_LIFETIME_DAYS;
  if (!/^\d{1,3}$/.test(given) || Number(given) < min || Number(given) > max) throw new UsageError(`--days must be a whole number from ${min} to ${max}, not ${given}`);
  return Number(given);
}

/** `--print FIELD`, checked before anything is created: a typo must not cost a key that is then never shown. */
export function printedField<F extends string>(value: string | undefined, fields: readonly F[]): F | null {
  if (value === undefined) return null;
  const field = fields.find((f) => f === value);
  if (!field) throw new UsageError(`--print takes one of ${fields.join(', ')}, not ${value}`);
  return field;
}

/** The whole answer as JSON, or one field of it alone on its line, for `KEY=$(vigil keys create … --print key)`. */
export function printAnswer<F extends string>(io: CliIo, answer: Record<F, unknown>, field: F | null): void {
  if (field === null) {
    io.stdout(jsonLine(answer));
    return;
  }
  const value = answer[field];
  io.stdout(visible(Array.isArray(value) ? value.join(',') : value === null || value === undefined ? '' : String(value)));
}
