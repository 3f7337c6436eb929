import { type EscalationCommand, escalationDecider, escalationPageId, escalationStream } from '../domain/escalation/escalation.js';
import { monitorStream } from '../domain/monitors/monitor-streams.js';
import { maintenanceStream } from '../domain/maintenance/window.js';
import { pageDecider, pageStream } from '../domain/notifications/page.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';
import type { EscalationPolicyDocument } from '../../projections/escalation-policies.js';
import type { EscalationDocument } from '../../projections/escalations.js';
import type { IncidentDocument } from '../../projections/incidents.js';
import type { MonitorDocument } from '../../projections/monitors.js';
import type { PendingPageDocument } from '../../projections/outbox.js';
import { BackgroundLoop } from './background-loop.js';
import { type Actor, handleCommand, handleCommandOnStreams } from './command-handler.js';
import type { CommandContext } from './context.js';
import { type OnCallResolver, stepChannels } from './escalation-targets.js';
import { onCallChannelIds } from './on-call.js';

const ESCALATOR_ACTOR: Actor = { kind: 'system', user_id: null, api_key_id: null, request_id: null };

/** The policy a monitor escalates through now, or null (then the notifier pages it as without escalations). */
export async function escalationPolicyOf(readModels: ReadModelStore, monitor: Pick<MonitorDocument, 'project_id' | 'escalation_policy_id'>): Promise<EscalationPolicyDocument | null> {
  if (!monitor.escalation_policy_id) return null;
  const policy = (await readModels.get<EscalationPolicyDocument>('escalation_policies', monitor.escalation_policy_id))?.doc;
  return policy && policy.project_id === monitor.project_id ? policy : null;
}

/**
 * Drives each escalation as the timer drives deadlines: it decides nothing, it reads due work from
 * read models and sends commands with `now`. Every command is decided on the escalation's stream
 * and the monitor's together (the incident's acknowledgement and resolution are there), and
 * names the step it means: a step is reached once, whatever restarts or concurrent escalators
 * happen in between.
 *
 * - An opened incident's page of a monitor with a policy starts its escalation (the policy is
 *   snapshotted), and that page is handed over: fanned out to no channel, the steps replace it.
 *   It is only ever a page the monitor decided, so maintenance, dependencies and surge protection
 *   silence an escalation exactly as they silence a page.
 * - Each step due is reached, then its page fanned out to the step's channels.
 * - An escalation whose incident was acknowledged or resolved is stopped.
 */
export class Escalator {
  private readonly loop: BackgroundLoop;

  constructor(
    private readonly commands: CommandContext,
    private readonly readModels: ReadModelStore,
    private readonly options: { onCall?: OnCallResolver; pollMs?: number; onError?: (error: unknown) => void } = {},
  ) {
    const onError = options.onError ?? ((error: unknown) => console.error('escalator error', error));
    this.loop = new BackgroundLoop(() => this.tick(), () => options.pollMs ?? 1000, onError);
  }

  private now(): string {
    return this.commands.clock().toISOString();
  }

  /** Starts, advances, stops and sends what is due; returns how many commands changed something. */
  async tick(): Promise<number> {
    return (await this.startOpened()) + (await this.stopClosed()) + (await this.advance()) + (await this.send());
  }

  private async startOpened(): Promise<number> {
    let done = 0;
    const opened = (await this.readModels.find<PendingPageDocument>('pending_pages', { reason: 'opened' }, { sort: [['at', 1]], limit: 500 })).map((s) => s.doc);
    for (const page of opened) {
      const monitor = (await this.readModels.get<MonitorDocument>('monitors', page.monitor_id))?.doc;
      const policy = monitor ? await escalationPolicyOf(this.readModels, monitor) : null;
      const incident = (await this.readModels.get<IncidentDocument>('incidents', page.incident_id))?.doc;
      if (!monitor || !policy || !incident) continue;
      const { policy_id, name, steps, repeat } = { policy_id: policy.id, ...policy };
      const started = await this.decide(page.incident_id, page.monitor_id, {
        type: 'StartEscalation', incident_id: page.incident_id, monitor_id: page.monitor_id, project_id: page.project_id, page_id: page.id,
        policy: { policy_id, policy_name: name, steps, repeat }, started_at: incident.started_at, now: this.now(),
      });
      // Handed over to the escalation, started now or before a crash: the page itself reaches nobody.
      await this.fanOut(page.id, page, 'opened', [], false);
      done += started;
    }
    return done;
  }

  private async stopClosed(): Promise<number> {
    let done = 0;
    for (const { doc } of await this.readModels.find<EscalationDocument>('escalations', { status: 'active' })) {
      const incident = (await this.readModels.get<IncidentDocument>('incidents', doc.incident_id))?.doc;
      if (!incident || incident.status === 'OPEN') continue;
      done += await this.decide(doc.incident_id, doc.monitor_id, { type: 'StopEscalation', incident_id: doc.incident_id, now: this.now() });
    }
    return done;
  }

  private async advance(): Promise<number> {
    let done = 0;
    const now = this.now();
    const due = await this.readModels.find<EscalationDocument>('escalations', { status: 'active', next_at: { $lte: now } }, { sort: [['next_at', 1]], limit: 500 });
    for (const { doc } of due) {
      if (doc.next_round === null || doc.next_step === null) continue;
      const step = doc.steps[doc.next_step];
      if (!step) continue;
      const channelIds = await stepChannels(this.readModels, doc.project_id, step, now, this.options.onCall ?? ((scheduleId, at) => onCallChannelIds(this.readModels, scheduleId, at)));
      // The project's maintenance windows are read too: a step due inside one is held until it ends.
      const streams = [escalationStream(doc.incident_id), monitorStream(doc.monitor_id), maintenanceStream(doc.project_id)] as const;
      const outcome = await handleCommandOnStreams(this.commands, streams, escalationDecider, {
        type: 'ReachEscalationStep', incident_id: doc.incident_id, round: doc.next_round, step: doc.next_step, channel_ids: channelIds, now,
      }, ESCALATOR_ACTOR);
      if (outcome.events.length > 0) done += 1;
      for (const event of outcome.events) {
        if (event.type !== 'EscalationStepReached') continue;
        const first = event.data.round === 0 && event.data.step === 0;
        await this.fanOut(event.data.page_id, doc, first ? 'opened' : 'repage', event.data.channel_ids, event.data.urgent);
      }
    }
    return done;
  }

  /** Pages of steps reached whose fan-out a crash cut off. */
  private async send(): Promise<number> {
    let done = 0;
    for (const { doc } of await this.readModels.find<EscalationDocument>('escalations', { has_unsent: true })) {
      for (const pageId of doc.unsent_page_ids) {
        const reached = doc.reached.find((r) => r.page_id === pageId);
        if (!reached) continue;
        const first = pageId === escalationPageId(doc.incident_id, 0, 0);
        done += await this.fanOut(pageId, doc, first ? 'opened' : 'repage', reached.channel_ids, reached.urgent);
      }
    }
    return done;
  }

  private async decide(incidentId: string, monitorId: string, command: EscalationCommand): Promise<number> {
    const outcome = await handleCommandOnStreams(this.commands, [escalationStream(incidentId), monitorStream(monitorId)], escalationDecider, command, ESCALATOR_ACTOR);
    return outcome.events.length > 0 ? 1 : 0;
  }

  private async fanOut(
    pageId: string,
    about: { incident_id: string; monitor_id: string; project_id: string },
    reason: 'opened' | 'repage',
    channelIds: string[],
    urgent: boolean,
  ): Promise<number> {
    const outcome = await handleCommand(this.commands, pageStream(pageId), pageDecider, {
      type: 'FanOutPage', page_id: pageId, project_id: about.project_id, incident_id: about.incident_id, monitor_id: about.monitor_id, reason, channel_ids: channelIds, now: this.now(), urgent,
    }, ESCALATOR_ACTOR);
    return outcome.events.length;
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }
}
