import { duration, plural, utc } from './format.js';
import { type Html, html } from './html.js';
import type { Run } from '../queries/recent-runs.js';

const round = (n: number) => Math.round(n * 10) / 10;

function runTitle(run: Run): string {
  return `${run.ok ? 'OK' : 'Failed'}${run.durationMs !== null ? ` in ${duration(run.durationMs)}` : ''}, ${utc(run.at)}`;
}

function summary(runs: readonly Run[]): string {
  const failed = runs.filter((r) => !r.ok).length;
  return `${runs.length === 1 ? 'Last run' : `Last ${runs.length} runs`}: ${runs.length - failed} OK, ${failed} failed`;
}

/**
 * The last runs as bars, oldest on the left: the height is the duration (full when unknown), the
 * colour and the pattern the outcome (a failed run is drawn hollow too, so colour is not the only sign).
 */
export function sparkline(runs: readonly Run[], slots: number): Html {
  if (runs.length === 0) return html`<span class="muted">No runs yet</span>`;
  const { width, height, moveTo, across, back } = sparklineFrame(slots);
  const longest = Math.max(1, ...runs.map((r) => r.durationMs ?? 0));
  const offset = slots - runs.length;
  // Whole pixels: a 28-pixel bar gains nothing from tenths, and a dashboard draws 30,000 of them.
  const bar = (slot: number, h: number) => `${moveTo[slot]} ${height - h}${across}${h}${back}`;
  // One path per kind of bar rather than an element per bar: a dashboard of many monitors stays small.
  // Slots with no run yet are stubs, so the newest run always sits at the right end of a full-width bar.
  let empty = '';
  for (let i = 0; i < offset; i++) empty += bar(i, 3);
  const heightOf = (run: Run) => (run.durationMs === null ? height : Math.max(4, Math.round((run.durationMs / longest) * height)));
  let ok = '';
  let failed = '';
  runs.forEach((run, i) => {
    if (run.ok) ok += bar(offset + i, heightOf(run));
    else failed += bar(offset + i, heightOf(run));
  });
  return html`<svg class="sparkline" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${summary(runs)}"><title>${summary(runs)}</title>${empty ? html`<path class="bar-empty" d="${empty}"></path>` : null}${ok ? html`<path class="bar-ok" d="${ok}"></path>` : null}${failed ? html`<path class="bar-fail" d="${failed}"></path>` : null}</svg>`;
}

interface SparklineFrame {
  width: number;
  height: number;
  /** `M<x>` for each slot. */
  moveTo: string[];
  /** `h<bar width>v`: the top edge of a bar, then down by its height. */
  across: string;
  /** `h-<bar width>z`: back along the bottom edge, closed. */
  back: string;
}

const sparklineFrames = new Map<number, SparklineFrame>();

/** The parts of a sparkline's path that depend only on its number of slots, computed once. */
function sparklineFrame(slots: number): SparklineFrame {
  let frame = sparklineFrames.get(slots);
  if (!frame) {
    const width = 150;
    const step = width / slots;
    const w = round(step - 1.5);
    frame = { width, height: 28, moveTo: Array.from({ length: slots }, (_, slot) => `M${round(slot * step + 0.5)}`), across: `h${w}v`, back: `h-${w}z` };
    sparklineFrames.set(slots, frame);
  }
  return frame;
}

/** The frame both charts draw in: a 960 × 180 view with room on the left for the scale. */
const CHART = { width: 960, height: 180, left: 56, top: 8, plotW: 960 - 56 - 8, plotH: 180 - 8 - 20 };

/** The two axes, and the scale from 0 to `topMs` written beside them. */
function axes(topMs: number): Html {
  const { left, top, plotW, plotH } = CHART;
  return html`<line class="axis" x1="${left}" x2="${left}" y1="${top}" y2="${top + plotH}"></line>
<line class="axis" x1="${left}" x2="${left + plotW}" y1="${top + plotH}" y2="${top + plotH}"></line>
<text class="tick" x="${left - 6}" y="${top + 10}" text-anchor="end">${duration(topMs)}</text>
<text class="tick" x="${left - 6}" y="${top + plotH}" text-anchor="end">0</text>`;
}

/** Durations against the monitor's limits, drawn as dashed lines, with the scale written out. */
export function durationChart(runs: readonly Run[], limits: { minMs: number | null; maxMs: number | null }, label: string): Html {
  const measured = runs.filter((r) => r.durationMs !== null);
  if (measured.length === 0) return html`<p class="muted">No measured runs yet: a run is measured from its START ping, or by the duration_ms it reports.</p>`;
  const { width, height, left, top, plotW, plotH } = CHART;
  const top_ms = Math.max(...measured.map((r) => r.durationMs ?? 0), limits.maxMs ?? 0, limits.minMs ?? 0, 1) * 1.1;
  const y = (ms: number) => round(top + plotH - (ms / top_ms) * plotH);
  const step = plotW / Math.max(runs.length, 10);
  const line = (ms: number | null, cls: string, text: string) =>
    ms === null
      ? null
      : html`<line class="${cls}" x1="${left}" x2="${left + plotW}" y1="${y(ms)}" y2="${y(ms)}"></line><text class="limit-label" x="${left + plotW - 2}" y="${y(ms) - 3}" text-anchor="end">${text} ${duration(ms)}</text>`;
  return html`<figure class="chart">
<svg viewBox="0 0 ${width} ${height}" role="img" aria-label="${label}: ${summary(runs)}">
${axes(top_ms)}
${runs.map((run, i) => {
  const ms = run.durationMs;
  const h = ms === null ? 3 : Math.max(2, (ms / top_ms) * plotH);
  return html`<rect class="${run.ok ? 'bar-ok' : 'bar-fail'}" x="${round(left + i * step + 1)}" y="${round(top + plotH - h)}" width="${round(Math.max(step - 2, 1))}" height="${round(h)}"><title>${runTitle(run)}</title></rect>`;
})}
${line(limits.maxMs, 'limit limit-max', 'max')}
${line(limits.minMs, 'limit limit-min', 'min')}
<text class="tick" x="${left}" y="${height - 4}">older</text>
<text class="tick" x="${left + plotW}" y="${height - 4}" text-anchor="end">newer</text>
</svg>
<figcaption>${label}: ${summary(runs)}.</figcaption>
</figure>`;
}

/** Response times as a line, failed checks marked below it. */
export function responseTimeChart(runs: readonly Run[]): Html {
  if (runs.length === 0) return html`<p class="muted">No checks yet.</p>`;
  const { width, height, left, top, plotW, plotH } = CHART;
  const topMs = Math.max(1, ...runs.map((r) => r.durationMs ?? 0)) * 1.1;
  const x = (i: number) => round(left + (runs.length === 1 ? plotW / 2 : (i / (runs.length - 1)) * plotW));
  const y = (ms: number) => round(top + plotH - (ms / topMs) * plotH);
  const points = runs.map((r, i) => `${x(i)},${y(r.durationMs ?? 0)}`).join(' ');
  const lastChecks = runs.length === 1 ? 'the last check' : `the last ${plural(runs.length, 'check')}`;
  return html`<figure class="chart">
<svg viewBox="0 0 ${width} ${height}" role="img" aria-label="Response times of ${lastChecks}">
${axes(topMs)}
<polyline class="response-line" points="${points}"></polyline>
${runs.map((r, i) => html`<circle class="${r.ok ? 'point-ok' : 'point-fail'}" cx="${x(i)}" cy="${y(r.durationMs ?? 0)}" r="${r.ok ? 2.5 : 4}"><title>${runTitle(r)}</title></circle>`)}
</svg>
<figcaption>Response time of ${lastChecks}; failed checks are the larger red dots.</figcaption>
</figure>`;
}
