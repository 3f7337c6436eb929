/** The value at quantile q of the samples (nearest rank), NaN when there are none. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/**
 * The middle sample, or the mean of the middle two of an even count: quantile(0.5)'s nearest rank
 * would take the upper one, and a bench judged on the median of its pairs (six, in a recorded
 * bench:pings) would lean towards meeting its target.
 */
export function median(samples: readonly number[]): number {
  if (samples.length === 0 || samples.length % 2 === 1) return quantile(samples, 0.5);
  const sorted = [...samples].sort((a, b) => a - b);
  return (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
}

export function percentiles(samples: readonly number[]): { p50: number; p99: number; max: number } {
  return { p50: quantile(samples, 0.5), p99: quantile(samples, 0.99), max: quantile(samples, 1) };
}
