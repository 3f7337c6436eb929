import { Refusal } from '../app/refusal.js';
import { readFileSync } from 'node:fs';
import { decode } from '../web/validation.js';
import { CreateMonitorBody } from '../web/codecs/monitors.js';
import { configFromCreate } from '../web/monitor-input.js';
import { type Actor, loadState } from '../app/command-handler.js';
import type { CommandContext } from '../app/context.js';
import { createMonitor, loadMonitorState, pauseMonitor } from '../app/monitors.js';
import { claimPeerAlias } from '../app/peer-aliases.js';
import { DomainError } from '../domain/errors.js';
import { assertConsistent } from '../domain/monitors/monitor-config.js';
import { slugClaimDecider, slugClaimStream } from '../domain/monitors/slug-claim.js';
import { projectDecider, projectStream } from '../domain/projects/project.js';
import { planHealthchecks } from './import-healthchecks.js';
import { type ImportPlan, ImportFileError, type MonitorDraft } from './import-plan.js';
import { planUptimeKuma } from './import-uptime-kuma.js';
import { CliUsageError, parseFlags } from './usage.js';
import { jsonLine, visible, visibleLines } from './visible.js';

export const IMPORT_USAGE = `usage:
  vigil import healthchecks FILE --project P [--dry-run] [--json]   (FILE: the JSON of Healthchecks' GET /api/v3/checks/)
  vigil import uptime-kuma FILE --project P [--dry-run] [--json]    (FILE: an Uptime Kuma JSON backup)`;

const SOURCES: Record<string, (file: unknown) => ImportPlan> = { healthchecks: planHealthchecks, 'uptime-kuma': planUptimeKuma };

export interface ImportIo {
  stdout: (text: string) => void;
  stderr: NodeJS.WritableStream;
}

/** Opens the store the server uses and hands this command a context on it; the caller closes it. */
export type WithContext = <T>(work: (context: CommandContext) => Promise<T>) => Promise<T>;

export interface ImportReport {
  created: { slug: string; name: string; id: string | null; type: string; paused: boolean; notes: string[] }[];
  skipped: { slug: string; name: string; id: string; reason: string }[];
  unmapped: { name: string; reason: string }[];
}

/**
 * `vigil import SOURCE FILE --project P`: reads the whole file and plans every monitor before
 * writing any, then creates each through the path `POST /v1/monitors` takes (its codec, its
 * defaults, the app layer), as recorded by the CLI. A monitor whose slug is already held in the
 * project is left as it is, so a second run of the same file creates nothing.
 */
export async function runImport(args: readonly string[], io: ImportIo, withContext: WithContext, actor: Actor): Promise<number> {
  let parsed: { plan: ImportPlan; projectId: string; json: boolean; dryRun: boolean; file: string };
  try {
    parsed = parseImportArgs(args);
  } catch (error) {
    if (error instanceof CliUsageError) {
      io.stderr.write(`vigil: ${visibleLines(error.message)}\n${IMPORT_USAGE}\n`);
      return 2;
    }
    if (error instanceof ImportFileError) {
      io.stderr.write(`vigil: ${visibleLines(error.message)}; nothing was imported\n`);
      return 1;
    }
    throw error;
  }
  const { plan, projectId, json, dryRun } = parsed;
  const report = await withContext(async (context) => {
    const { state: project } = await loadState(context.events, projectStream(projectId), projectDecider);
    if (project.status !== 'active') throw new DomainError('not_found', `no project has the id ${projectId}`);
    return importPlan(context, projectId, plan, dryRun, actor);
  });
  io.stdout(json ? jsonLine(report) : reportTable(report, dryRun));
  return 0;
}

function parseImportArgs(args: readonly string[]) {
  const [source, ...rest] = args;
  if (source === undefined) throw new CliUsageError('import needs a source: healthchecks or uptime-kuma');
  const planOf = SOURCES[source];
  if (!planOf) throw new CliUsageError(`import reads healthchecks or uptime-kuma, not ${source}`);
  const { values: flags, positionals } = parseFlags(rest, { project: { type: 'string' }, json: { type: 'boolean' }, 'dry-run': { type: 'boolean' } }, true);
  if (positionals.length !== 1) throw new CliUsageError(positionals.length === 0 ? 'import needs the file to read' : `unexpected argument ${positionals[1]}`);
  if (!flags.project) throw new CliUsageError('--project is required');
  const file = positionals[0]!;
  let content: unknown;
  try {
    content = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    if (error instanceof SyntaxError) throw new ImportFileError(`${file} is not JSON (${error.message})`);
    throw error;
  }
  return { plan: planOf(content), projectId: flags.project.toLowerCase(), json: flags.json === true, dryRun: flags['dry-run'] === true, file };
}

/** The monitor that holds `slug` in the project now, if any: read from the log, so no projector need have run. */
async function holderOf(context: CommandContext, projectId: string, slug: string): Promise<string | null> {
  const { state } = await loadState(context.events, slugClaimStream(projectId, slug), slugClaimDecider);
  if (state.holder === null) return null;
  return (await loadMonitorState(context, state.holder)).lifecycle === 'active' ? state.holder : null;
}

async function importPlan(context: CommandContext, projectId: string, plan: ImportPlan, dryRun: boolean, actor: Actor): Promise<ImportReport> {
  const report: ImportReport = { created: [], skipped: [], unmapped: plan.unmapped.map(({ source, reason }) => ({ name: source, reason })) };
  for (const draft of plan.drafts) {
    const holder = await holderOf(context, projectId, draft.slug);
    if (holder !== null) {
      report.skipped.push({ slug: draft.slug, name: draft.source, id: holder, reason: 'already there' });
      continue;
    }
    try {
      const id = await createDraft(context, projectId, draft, dryRun, actor);
      report.created.push({ slug: draft.slug, name: draft.body.name, id, type: draft.body.type, paused: draft.paused, notes: draft.notes });
    } catch (error) {
      // Refused as the API would refuse it: a 400's message or the domain's.
      if (!(error instanceof Refusal) && !(error instanceof DomainError)) throw error;
      report.unmapped.push({ name: draft.source, reason: error.message });
    }
  }
  return report;
}

async function createDraft(context: CommandContext, projectId: string, draft: MonitorDraft, dryRun: boolean, actor: Actor): Promise<string | null> {
  const body = decode(CreateMonitorBody, { ...draft.body, project_id: projectId });
  const config = configFromCreate(body);
  // What createMonitor's decision checks too: here so a dry run reports the same refusals.
  assertConsistent(config, context.clock().toISOString());
  if (dryRun) return null;
  const { monitorId } = await createMonitor(context, { project_id: projectId, config, slugGiven: true }, actor);
  if (draft.peerAlias) await claimPeerAlias(context, { ...draft.peerAlias, project_id: projectId, monitor_id: monitorId }, actor);
  if (draft.paused) await pauseMonitor(context, monitorId, actor);
  return monitorId;
}

function reportTable(report: ImportReport, dryRun: boolean): string {
  const rows: [string, string, string][] = [
    ...report.created.flatMap((c): [string, string, string][] => [
      [dryRun ? 'would create' : 'created', c.slug, `${c.type}${c.paused ? ' (paused)' : ''}  ${c.name}`],
      ...c.notes.map((note): [string, string, string] => ['', '', `note: ${note}`]),
    ]),
    ...report.skipped.map((s): [string, string, string] => ['skipped', s.slug, s.reason]),
    ...report.unmapped.map((u): [string, string, string] => ['unmapped', u.name, u.reason]),
  ];
  // Names, slugs and reasons come from the file: shown with their control characters made visible.
  const shown = rows.map(([status, label, text]): [string, string, string] => [status, visible(label), visible(text)]);
  const width = (column: 0 | 1) => Math.max(0, ...shown.map((row) => row[column].length));
  const lines = shown.map(([status, label, text]) => `${status.padEnd(width(0))}  ${label.padEnd(width(1))}  ${text}`.trimEnd());
  lines.push(`${report.created.length} ${dryRun ? 'to create' : 'created'}, ${report.skipped.length} already there, ${report.unmapped.length} not imported`);
  return lines.join('\n');
}
