/**
 * The benchmark record. Each benchmark writes its result as JSON to bench/results/<name>.json and
 * then regenerates bench/RESULTS.md from every file there, so one benchmark can be re-run alone
 * and its numbers merged with the others'. A result file, written by hand or by any script:
 *
 *   {
 *     "name": "rebuild-1m",                   // the heading; any text
 *     "date": "2026-11-21T17:00:00.000Z",     // when it ran (ISO-8601)
 *     "command": "npm run bench:replay",      // optional: how to run it again
 *     "machine": "Intel Xeon …, 2 cores, …",  // optional: filled in by recordResult
 *     "figures": { "events_per_s": 52000, "peak_rss_mib": 180 },
 *     "baseline": { "name": "reading the log only", "figures": { "events_per_s": 190000 } },
 *     "ratio": 0.27,                          // optional: the headline figure over the baseline's
 *     "target": { "description": "at least 50,000 events/s rebuilding 1,000,000 events", "met": true },
 *     "notes": ["optional lines of prose"]
 *   }
 *
 * The file name is the section's anchor (recordResult uses the name, lower-cased, non-alphanumerics
 * as dashes). Figure names carry their unit (`_ms`, `_per_s`, `_mib`, `_percent`); a baseline figure with the
 * same name as a measured one shares its row in the report.
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, release, totalmem, type } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type Figures = Record<string, number>;

export interface BenchResult {
  name: string;
  date: string;
  command?: string;
  machine?: string;
  figures: Figures;
  baseline: { name: string; figures: Figures };
  ratio?: number;
  target?: { description: string; met: boolean };
  notes?: string[];
}

const benchDir = dirname(fileURLToPath(import.meta.url));
export const resultsDir = join(benchDir, 'results');
const reportPath = join(benchDir, 'RESULTS.md');

/** A result and the name of its file (without .json), which anchors its section. */
export interface RecordedResult {
  file: string;
  result: BenchResult;
}

/** This machine in one line: CPU model, cores, RAM, Node, OS. */
export function machine(): string {
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const ram = `${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM`;
  return `${cpu}, ${availableParallelism()} cores, ${ram}, Node ${process.version}, ${osName()} (${type()} ${release()})`;
}

function osName(): string {
  try {
    const pretty = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(readFileSync('/etc/os-release', 'utf8'));
    if (pretty?.[1]) return pretty[1];
  } catch {
    // Not Linux: the kernel name and release say enough.
  }
  return process.platform;
}

/** Writes the result's JSON and regenerates RESULTS.md; returns the JSON path. */
export function recordResult(result: Omit<BenchResult, 'machine'> & { machine?: string }): string {
  mkdirSync(resultsDir, { recursive: true });
  const path = join(resultsDir, `${slug(result.name)}.json`);
  writeFileSync(path, `${JSON.stringify({ ...result, machine: result.machine ?? machine() }, null, 2)}\n`);
  writeReport();
  console.log(`recorded ${path}; regenerated ${reportPath}`);
  return path;
}

/** Every result in bench/results, in name order; a file that is not a result is reported and skipped. */
export function readResults(dir = resultsDir, warn: (message: string) => void = console.error): RecordedResult[] {
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((file) => file.endsWith('.json')).sort();
  } catch {
    return [];
  }
  const results: RecordedResult[] = [];
  for (const file of files) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    } catch {
      parsed = null;
    }
    if (isBenchResult(parsed)) results.push({ file: file.slice(0, -'.json'.length), result: parsed });
    else warn(`${join(dir, file)} is not a benchmark result (see the shape at the top of bench/results.ts); left out`);
  }
  return results;
}

function slug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'result';
}

export function writeReport(): void {
  writeFileSync(reportPath, renderReport(readResults(), new Date(), machine()));
}

export function renderReport(results: readonly RecordedResult[], now: Date, thisMachine: string): string {
  const lines = [
    '# Benchmark results',
    '',
    `Regenerated ${now.toISOString()} on ${thisMachine}.`,
    '',
    'Each benchmark prints its figures next to a baseline measured in the same run on the same machine;',
    '`npm run bench` runs them all, `npm run bench:<name>` one, and either rewrites this file from `bench/results/*.json`.',
    '',
    '| benchmark | target | met |',
    '| --- | --- | --- |',
    ...results.map(({ file, result: r }) => `| [${text(r.name)}](#${file}) | ${text(r.target?.description ?? '—')} | ${r.target ? (r.target.met ? 'yes' : '**no**') : '—'} |`),
  ];
  for (const { file, result } of results) {
    lines.push('', `<a id="${file}"></a>`, '', `## ${text(result.name)}`, '');
    lines.push(`Ran ${result.date}${result.machine ? ` on ${result.machine}` : ''}.`);
    if (result.command) lines.push('', `    ${result.command}`);
    lines.push('', `| figure | measured | baseline: ${text(result.baseline.name)} |`, '| --- | ---: | ---: |');
    const names = [...Object.keys(result.figures), ...Object.keys(result.baseline.figures).filter((k) => !(k in result.figures))];
    for (const name of names) lines.push(`| ${name} | ${show(result.figures[name])} | ${show(result.baseline.figures[name])} |`);
    if (result.ratio !== undefined) lines.push('', `Ratio to the baseline: ${show(result.ratio)}.`);
    if (result.target) lines.push('', `Target: ${text(result.target.description)} — ${result.target.met ? 'met' : '**not met**'}.`);
    for (const note of result.notes ?? []) lines.push('', text(note));
  }
  return `${lines.join('\n')}\n`;
}

/** Prose from a result file, safe inside a Markdown table and not taken for HTML. */
function text(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('|', '\\|');
}

function show(value: number | undefined): string {
  if (value === undefined) return '';
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) return value.toLocaleString('en-US');
  return value.toLocaleString('en-US', { maximumSignificantDigits: 3 });
}

function isFigures(value: unknown): value is Figures {
  return typeof value === 'object' && value !== null && Object.values(value).every((v) => typeof v === 'number');
}

function isBenchResult(value: unknown): value is BenchResult {
  if (typeof value !== 'object' || value === null) return false;
  const baseline: unknown = Reflect.get(value, 'baseline');
  const target: unknown = Reflect.get(value, 'target');
  const ratio: unknown = Reflect.get(value, 'ratio');
  return (
    typeof Reflect.get(value, 'name') === 'string' &&
    typeof Reflect.get(value, 'date') === 'string' &&
    isFigures(Reflect.get(value, 'figures')) &&
    typeof baseline === 'object' &&
    baseline !== null &&
    typeof Reflect.get(baseline, 'name') === 'string' &&
    isFigures(Reflect.get(baseline, 'figures')) &&
    (ratio === undefined || typeof ratio === 'number') &&
    (target === undefined ||
      (typeof target === 'object' && target !== null && typeof Reflect.get(target, 'description') === 'string' && typeof Reflect.get(target, 'met') === 'boolean'))
  );
}
