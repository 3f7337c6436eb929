import { parseInterval } from '../domain/monitors/schedule.js';
import { DEFAULT_VIGIL_URL } from './ping-target.js';
import { CliUsageError, parseFlags } from './usage.js';
import { jsonLine, visibleLines } from './visible.js';

export interface MaintenanceCommandIo {
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
  stderr: NodeJS.WritableStream;
}

export const MAINTENANCE_USAGE = `usage:
  vigil maintenance start (--monitor ID|SLUG [--monitor ...] | --project P) [--project P] --for 30m [--name NAME] [--url URL]
  vigil maintenance end WINDOW_ID [--url URL]
  vigil maintenance list --project P [--url URL]

  A REST client, for deploy scripts: VIGIL_API_KEY is the API key (scope manage_monitors to start or
  end a window, read to list), VIGIL_URL the server (${DEFAULT_VIGIL_URL} unless set).
  start prints the new window's id alone, for WINDOW=$(vigil maintenance start ...); without --monitor
  the window covers the whole project. end ends it now: what is still failing opens and pages at once.`;

/** A refusal from the server or a monitor that is not there: printed, exit 1. */
class Refused extends Error {}

interface Client {
  call: <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => Promise<T>;
}

function client(baseUrl: string, key: string): Client {
  return {
    async call(method, path, body) {
      const response = await fetch(`${baseUrl.replace(/\/+$/, '')}${path}`, {
        method,
        headers: { 'X-API-Key': key, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(10_000),
      }).catch((error: unknown) => {
        throw new Refused(`could not reach Vigil at ${baseUrl}: ${error instanceof Error ? error.message : String(error)}`);
      });
      const text = await response.text();
      const answer = parsedJson(text);
      if (!response.ok) throw new Refused(`${method} ${path} answered ${response.status}: ${String(answer['error'] ?? text)}`);
      return answer as never;
    },
  };
}

/** `vigil maintenance start|end|list`: maintenance windows through the REST API. */
export async function runMaintenance(args: readonly string[], io: MaintenanceCommandIo): Promise<number> {
  try {
    const [verb, ...rest] = args;
    const connect = (url: string | undefined) => {
      const baseUrl = url ?? nonEmpty(io.env['VIGIL_URL']) ?? DEFAULT_VIGIL_URL;
      if (!/^https?:\/\/[^/]/.test(baseUrl) || !URL.canParse(baseUrl)) throw new CliUsageError(`the Vigil URL must be an http:// or https:// URL, not ${baseUrl}`);
      const key = nonEmpty(io.env['VIGIL_API_KEY']);
      if (key === undefined) throw new CliUsageError('set VIGIL_API_KEY to an API key of the project');
      return client(baseUrl, key);
    };
    switch (verb) {
      case 'start': {
        const { values } = parseFlags(rest, { monitor: { type: 'string', multiple: true }, project: { type: 'string' }, for: { type: 'string' }, name: { type: 'string' }, url: { type: 'string' } });
        const duration = values.for === undefined ? null : parseInterval(values.for);
        if (duration === null) throw new CliUsageError(`--for is how long, such as 30m, 2h or 1d${values.for === undefined ? '' : `, not ${values.for}`}`);
        const monitors = values.monitor ?? [];
        if (monitors.length === 0 && values.project === undefined) throw new CliUsageError('which monitors? give --monitor (id or slug, repeated) or --project for all of a project');
        const api = connect(values.url);
        const { projectId, monitorIds } = await resolveMonitors(api, monitors, values.project);
        const body = { name: values.name ?? 'Maintenance', duration_seconds: Math.round(duration / 1000), ...(monitorIds.length > 0 ? { monitor_ids: monitorIds } : {}) };
        const answer = await api.call<{ maintenance_window: { id: string } }>('POST', `/v1/projects/${encodeURIComponent(projectId)}/maintenance-windows`, body);
        io.stdout(answer.maintenance_window.id);
        return 0;
      }
      case 'end': {
        const { values, positionals } = parseFlags(rest, { url: { type: 'string' } }, true);
        const [windowId, ...extra] = positionals;
        if (windowId === undefined || extra.length > 0) throw new CliUsageError('give the id of one window: vigil maintenance end WINDOW_ID');
        const answer = await connect(values.url).call('POST', `/v1/maintenance-windows/${encodeURIComponent(windowId)}/end`);
        io.stdout(jsonLine(answer['maintenance_window']));
        return 0;
      }
      case 'list': {
        const { values } = parseFlags(rest, { project: { type: 'string' }, url: { type: 'string' } });
        if (values.project === undefined) throw new CliUsageError('--project is required');
        const answer = await connect(values.url).call('GET', `/v1/projects/${encodeURIComponent(values.project)}/maintenance-windows`);
        io.stdout(jsonLine(answer));
        return 0;
      }
      default:
        throw new CliUsageError(verb === undefined ? 'start, end or list?' : `unknown maintenance command: ${verb}`);
    }
  } catch (error) {
    if (error instanceof CliUsageError) {
      io.stderr.write(`vigil: ${visibleLines(error.message)}\n${MAINTENANCE_USAGE}\n`);
      return 2;
    }
    if (error instanceof Refused) {
      io.stderr.write(`vigil: ${visibleLines(error.message)}\n`);
      return 1;
    }
    throw error;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Monitor ids as given, slugs looked up in the project (--project, or the one a project key is
 * bound to); the project is --project, or that of the first monitor given by id.
 */
async function resolveMonitors(api: Client, given: readonly string[], project: string | undefined): Promise<{ projectId: string; monitorIds: string[] }> {
  let projectId = project;
  if (projectId === undefined) {
    const byId = given.find((m) => UUID.test(m));
    if (byId !== undefined) projectId = (await api.call<{ monitor: { project_id: string } }>('GET', `/v1/monitors/${byId}`)).monitor.project_id;
  }
  const slugs = given.filter((m) => !UUID.test(m));
  let listed: { id: string; slug: string; project_id: string }[] = [];
  if (slugs.length > 0) {
    const query = projectId === undefined ? '' : `?project_id=${encodeURIComponent(projectId)}`;
    listed = (await api.call<{ monitors: { id: string; slug: string; project_id: string }[] }>('GET', `/v1/monitors${query}`)).monitors;
    projectId ??= listed[0]?.project_id;
  }
  const monitorIds = given.map((m) => {
    if (UUID.test(m)) return m.toLowerCase();
    const found = listed.find((l) => l.slug === m);
    if (!found) throw new Refused(`no monitor with slug ${m} in project ${projectId ?? '(none)'}`);
    return found.id;
  });
  if (projectId === undefined) throw new CliUsageError('--project is required to find monitors by slug with an account key');
  return { projectId, monitorIds };
}

function parsedJson(text: string): Record<string, unknown> {
  try {
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    return { error: text.slice(0, 200) };
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
