import type { MonitorConfig } from '../domain/monitors/monitor-config.js';
import { provisionedConfig } from '../domain/projects/auto-provisioning.js';
import { type AutoProvisioningPatch } from '../domain/projects/auto-provisioning.js';
import { projectDecider, projectStream, provisioningOf } from '../domain/projects/project.js';
import { type Actor, handleCommand } from './command-handler.js';
import { type CommandContext, nowIso } from './context.js';
import { createMonitor, loadMonitorState } from './monitors.js';

export async function configureAutoProvisioning(context: CommandContext, input: { project_id: string; patch: AutoProvisioningPatch }, actor: Actor) {
  return handleCommand(context, projectStream(input.project_id), projectDecider, { type: 'ConfigureAutoProvisioning', ...input, now: nowIso(context) }, actor);
}

/**
 * A ping with `?create=1` to a slug no monitor has: the project records the creation (where the
 * hourly cap is decided), then the monitor is created under the id recorded there, with the
 * project's defaults. Each step is idempotent, so a creation a crash cut short is finished by the
 * next such ping for the slug, and two pings for the same new slug make one monitor. The monitor's
 * events say a first ping created it: actor `system`, cause `first_ping`, the ping's address and
 * user agent. Returns the monitor's id, for the ping to be recorded as its first.
 */
export async function provisionOnFirstPing(
  context: CommandContext,
  input: { project_id: string; slug: string; request_ip: string | null; request_ua: string | null; request_id: string | null; configure?: (base: MonitorConfig) => MonitorConfig },
  ): Promise<{ monitorId: string; position: number | null }> {
  const { project_id, slug, request_ip, request_ua } = input;
  const actor: Actor = { kind: 'system', user_id: null, api_key_id: null, request_id: input.request_id, cause: 'first_ping', request_ip, request_ua };
  const decided = await handleCommand(
    context,
    projectStream(project_id),
    projectDecider,
    { type: 'ProvisionMonitor', project_id, monitor_id: context.newId(), slug, request_ip, request_ua, now: nowIso(context) },
    actor,
  );
  // A peer's client may say how the monitor is scheduled (Sentry's monitor_config): over the project's defaults.
  const configured = input.configure ?? ((base: MonitorConfig) => base);
  const monitorId = provisioningOf(decided.state, slug);
  if (monitorId === null) throw new Error(`no monitor is being created for slug ${slug}`);
  if ((await loadMonitorState(context, monitorId)).lifecycle !== 'absent') return { monitorId, position: decided.position };
  const created = await createMonitor(
    context,
    { project_id, config: configured(provisionedConfig(decided.state.autoProvisioning.defaults, slug)), slugGiven: true, monitor_id: monitorId },
    actor,
  );
  return { monitorId, position: created.position };
}
