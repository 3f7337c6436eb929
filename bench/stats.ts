/** The value at quantile q of the samples (nearest rank), NaN when there are none. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export function median(samples: readonly number[]): number {
  return quantile(samples, 0.5);
}

export function percentiles(samples: readonly number[]): { p50: number; p99: number; max: number } {
  return { p50: quantile(samples, 0.5), p99: quantile(samples, 0.99), max: quantile(samples, 1) };
}
