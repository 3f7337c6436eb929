/**
 * How far ahead a schedule must have a next time to be accepted, and how far an RRULE's is looked
 * for: far enough for February 29th across a century's skipped leap year (2096 → 2104).
 */
export const HORIZON_YEARS = 8;
export const HORIZON_MS = HORIZON_YEARS * 366 * 86_400_000;
