import type { PeerTool } from '../domain/peers/peer-alias.js';
import { slugify } from '../domain/monitors/slug-claim.js';

/**
 * What an importer makes of another tool's export, before anything is written: for each monitor
 * it could map, the body a `POST /v1/monitors` would carry (checked by the same codec when it is
 * created), and for each it could not, why.
 */
export interface MonitorDraft {
  /** The monitor's name in the file it came from. */
  source: string;
  slug: string;
  body: { name: string; type: string; schedule: string; slug: string } & Record<string, unknown>;
  /** Paused (or inactive) in the other tool: created, then paused. */
  paused: boolean;
  /** What was kept only in part, or left out, of a monitor that was mapped. */
  notes: string[];
  /** The ping URL's secret in the other tool (a check's UUID, a push token), which keeps reaching the monitor. */
  peerAlias?: { peer: PeerTool; alias: string };
}

export interface Unmapped {
  source: string;
  reason: string;
}

export interface ImportPlan {
  drafts: MonitorDraft[];
  unmapped: Unmapped[];
}

/** A refusal of a whole file: not the export the command expects. */
export class ImportFileError extends Error {}

type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
export const stringAt = (record: Json, key: string): string | null => (typeof record[key] === 'string' ? String(record[key]) : null);
export const numberAt = (record: Json, key: string): number | null => {
  const value = record[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
};
/** Uptime Kuma writes booleans as 1/0 from SQLite and as true/false from its API. */
export const flagAt = (record: Json, key: string): boolean => record[key] === true || record[key] === 1;

const UNITS: [string, number][] = [['w', 604_800], ['d', 86_400], ['h', 3_600], ['m', 60], ['s', 1]];

/** Seconds as the interval Vigil reads (`1d`, `90m`, `45s`), in the largest unit that divides them; null outside 1 s to 365 d. */
export function intervalOf(seconds: number): string | null {
  const whole = Math.round(seconds);
  if (whole < 1 || whole > 365 * 86_400) return null;
  const [unit, size] = UNITS.find(([, size]) => whole % size === 0)!;
  return `${whole / size}${unit}`;
}

/** Vigil's limit on a grace period (30 days); a longer one is cut to it, and said so. */
export const MAX_GRACE_SECONDS = 30 * 86_400;

export function graceOf(seconds: number, notes: string[]): number {
  const whole = Math.max(0, Math.round(seconds));
  if (whole <= MAX_GRACE_SECONDS) return whole;
  notes.push(`grace period ${whole}s cut to Vigil's limit of ${MAX_GRACE_SECONDS}s (30 days)`);
  return MAX_GRACE_SECONDS;
}

export function textOf(value: string, max: number, field: string, notes: string[]): string {
  if (value.length <= max) return value;
  notes.push(`${field} cut to ${max} characters`);
  return value.slice(0, max);
}

/** Vigil's tags: at most 10, each 1 to 50 characters, no repeats. */
export function tagsOf(given: string[], notes: string[]): string[] {
  const unique = [...new Set(given.map((tag) => tag.trim()).filter((tag) => tag !== ''))];
  const fitting = unique.filter((tag) => tag.length <= 50);
  if (fitting.length < unique.length) notes.push(`tags longer than 50 characters left out: ${unique.filter((tag) => tag.length > 50).join(', ')}`);
  if (fitting.length > 10) notes.push(`only the first 10 tags kept; left out: ${fitting.slice(10).join(', ')}`);
  return fitting.slice(0, 10);
}

/**
 * Slugs made unique within one file, in its order, so the same file gives the same slugs on every
 * run: the second "Backup" is always `backup-2`, and a second import finds both already there.
 * Each base remembers the number it reached, so the n-th repeat of a name tries one or two
 * candidates rather than n: an export of 10,000 checks of one name took 50 million probes.
 */
export class SlugAllocator {
  private readonly nextNumber = new Map<string, number>();

  /** `taken`: the slugs allocated so far (a spec passes one that counts its probes). */
  constructor(private readonly taken: Set<string> = new Set()) {}

  allocate(wanted: string): string {
    const base = slugify(wanted);
    let candidate = base;
    let n = this.nextNumber.get(base) ?? 2;
    // Numbers below `n` were found taken for this base, and a slug once taken stays taken.
    if (this.taken.has(candidate)) {
      do {
        candidate = `${base.slice(0, 50 - String(n).length - 1)}-${n}`;
        n += 1;
      } while (this.taken.has(candidate));
      this.nextNumber.set(base, n);
    }
    this.taken.add(candidate);
    return candidate;
  }
}
