import { BackgroundLoop } from '../app/background-loop.js';
import type { Actor } from '../app/command-handler.js';
import { handleCommand, loadState } from '../app/command-handler.js';
import type { CommandContext } from '../app/context.js';
import type { SecretBox } from '../app/secret-box.js';
import { UNCONTESTED, type WorkClaims } from '../coordination/work-claims.js';
import { ALL_THE_WORK, type WorkShare } from '../coordination/work-share.js';
import { type PageState, pageDecider, pageStream } from '../domain/notifications/page.js';
import { quietUntil } from '../domain/notifications/quiet-hours.js';
import type { VigilMetrics } from '../metrics/vigil-metrics.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';
import { pageMessage } from '../notifications/message.js';
import { type DeliveryContext, DeliveryError, type SmtpSettings, deliver } from '../notifications/senders.js';
import { type OutboundGuard, guardFor } from '../outbound/guard.js';
import type { PrivateTargets } from '../outbound/policy.js';
import type { IncidentDocument } from '../../projections/incidents.js';
import type { MonitorDocument } from '../../projections/monitors.js';
import type { ChannelDocument } from '../../projections/notification-channels.js';
import { type DeliveryDocument, type PendingPageDocument, deliveryId } from '../../projections/outbox.js';
import { type DeletionDependencies, type PageFannedOut, finishMonitorDeletions } from '../app/monitor-deletion.js';
import { routedChannels } from '../app/page-routing.js';
import { slotOf } from '../coordination/partitions.js';
import { escalationPolicyOf } from '../app/escalator.js';
import type { EscalationDocument } from '../../projections/escalations.js';

export interface NotifierConfig {
  timeoutMs: number;
  maxAttempts: number;
  /** First retry after this; each later one waits five times longer, at most ten minutes. */
  retryBaseMs: number;
  concurrency: number;
  pollMs: number;
  smtp: SmtpSettings | null;
  /** VIGIL_PRIVATE_TARGETS: only `allow` lets deliveries reach private addresses. */
  privateTargets: PrivateTargets;
}

/** How notifier instances divide the work: by monitor partition, and one claim per delivery in progress. */
export interface NotifierCoordination {
  share?: WorkShare;
  claims?: WorkClaims;
  /**
   * Where the notifier may wait for the read models: with it, each tick first finishes the monitor
   * deletions of its partitions that a crash left half-way, delivering the pages they hand over.
   */
  settled?: (position: number) => Promise<void>;
}

const NOTIFIER_ACTOR: Actor = { kind: 'system', user_id: null, api_key_id: null, request_id: null };
const MAX_BACKOFF_MS = 10 * 60_000;

/**
 * Delivers the pages the monitors decided on. A page is fanned out once (the page stream is
 * written with `no_stream`, so a second notifier changes nothing) to the channels routed at that
 * moment: the monitor's groups' channels and its own, each once, only enabled ones. Each delivery
 * is then made at least once, retried with backoff, and its outcome recorded as an event: after a
 * restart nothing delivered is sent again and nothing pending is forgotten. Receivers de-duplicate
 * on the idempotency key (`webhook-id`), which a crash between sending and recording can repeat.
 *
 * Several notifiers split the pages by monitor partition, and each delivery is claimed while it is
 * made and checked against the page stream first, so a page is sent once in the normal case even
 * while partitions change hands; only a notifier dying between sending and recording makes a
 * second notifier send it again, once the dead one's claim has expired (at least once).
 */
export class Notifier {
  private readonly inFlight = new Set<string>();
  private readonly share: WorkShare;
  private readonly claims: WorkClaims;
  private readonly deletions: DeletionDependencies | null;
  private readonly outbound: OutboundGuard;
  private readonly loop = new BackgroundLoop(() => this.tick(), () => this.config.pollMs, (error) => this.onError(error));

  constructor(
    private readonly commands: CommandContext,
    private readonly readModels: ReadModelStore,
    private readonly secrets: SecretBox,
    private readonly config: NotifierConfig,
    private readonly onError: (error: unknown) => void = (error) => console.error('notifier error', error),
    private readonly metrics: Pick<VigilMetrics, 'notificationDeliveries' | 'notificationFailures'> | null = null,
    coordination: NotifierCoordination = {},
  ) {
    this.share = coordination.share ?? ALL_THE_WORK;
    this.claims = coordination.claims ?? UNCONTESTED;
    this.deletions = coordination.settled ? { commands, readModels, settled: coordination.settled } : null;
    this.outbound = guardFor(config.privateTargets, 'delivery');
  }

  /** Fans out pending pages, then makes every delivery that is due; returns how many of each. */
  async tick(): Promise<{ fannedOut: number; attempted: number }> {
    const scope = await this.share.scope();
    if (!scope) return { fannedOut: 0, attempted: 0 };
    const pages = (await this.readModels.find<PendingPageDocument>('pending_pages', scope, { sort: [['at', 1]], limit: 500 })).map((s) => s.doc);
    const handedOver = this.deletions ? await finishMonitorDeletions(this.deletions, scope, NOTIFIER_ACTOR, this.onError) : [];
    let fannedOut = handedOver.length;
    // Deliver at once rather than after the read model has caught up with the fan-out.
    const fresh: DeliveryDocument[] = handedOver.flatMap(deliveriesOf);
    for (const page of pages) {
      if (this.inFlight.has(page.id)) continue;
      this.inFlight.add(page.id);
      try {
        const channelIds = await this.pageChannels(page);
        // Its monitor is gone from the read model (or not in it yet): a deleted monitor's pages are
        // its deletion's to fan out, to the channels its own stream routes to (src/app/monitor-deletion.ts).
        if (channelIds === null) continue;
        const outcome = await handleCommand(
          this.commands,
          pageStream(page.id),
          pageDecider,
          { type: 'FanOutPage', page_id: page.id, project_id: page.project_id, incident_id: page.incident_id, monitor_id: page.monitor_id, reason: page.reason, channel_ids: channelIds, now: this.now() },
          NOTIFIER_ACTOR,
        );
        fannedOut += 1;
        for (const event of outcome.events) if (event.type === 'PageFannedOut') fresh.push(...deliveriesOf(event));
      } finally {
        // Kept until the read model drops the page; a failed fan-out is tried again next tick.
        setTimeout(() => this.inFlight.delete(page.id), 5_000).unref();
      }
    }
    const stored = (await this.readModels.find<DeliveryDocument>('deliveries', { ...scope, status: 'pending', next_attempt_at: { $lte: this.now() } }, { sort: [['next_attempt_at', 1]], limit: 500 })).map((s) => s.doc);
    const due = [...fresh, ...stored].filter((d, i, all) => !this.inFlight.has(`${d.id}#${d.attempts}`) && all.findIndex((o) => o.id === d.id && o.attempts === d.attempts) === i);
    for (let i = 0; i < due.length; i += this.config.concurrency) {
      // All channels of a page (and of several pages) are sent to in parallel.
      await Promise.all(due.slice(i, i + this.config.concurrency).map((delivery) => this.attempt(delivery)));
    }
    return { fannedOut, attempted: due.length };
  }

  private now(): string {
    return this.commands.clock().toISOString();
  }

  /**
   * Where a page goes. An escalated incident's acknowledgement and resolution go to the channels
   * its escalation paged, and only to them; a monitor with an escalation policy leaves its opening
   * page to the escalator (src/app/escalator.ts), which hands it over to the policy's steps
   * (null: not this notifier's to fan out). Every other page goes where the monitor routes.
   */
  private async pageChannels(page: PendingPageDocument): Promise<string[] | null> {
    if (page.reason === 'acknowledged' || page.reason === 'resolved') {
      const escalation = (await this.readModels.get<EscalationDocument>('escalations', page.incident_id))?.doc;
      if (escalation) return escalation.paged_channel_ids;
    }
    const monitor = (await this.readModels.get<MonitorDocument>('monitors', page.monitor_id))?.doc;
    if (!monitor) return null;
    if (page.reason === 'opened' && (await escalationPolicyOf(this.readModels, monitor))) return null;
    return routedChannels(this.readModels, page.project_id, monitor);
  }

  private async attempt(delivery: DeliveryDocument): Promise<void> {
    const key = `${delivery.id}#${delivery.attempts}`;
    let claimed = false;
    let heldNow = false;
    try {
      // Another notifier making this delivery right now keeps it; it is looked at again next tick.
      claimed = await this.claims.claim(delivery.id, this.config.timeoutMs);
      if (!claimed) return;
      this.inFlight.add(key);
      const page = await this.stillDue(delivery);
      if (!page) return;
      const channel = (await this.readModels.get<ChannelDocument>('notification_channels', delivery.channel_id))?.doc ?? null;
      if (await this.held(delivery, page, channel)) {
        // Due again only when the quiet hours end: nothing to keep from a second attempt meanwhile.
        heldNow = true;
        return;
      }
      const outcome = await this.send(delivery, channel);
      await handleCommand(
        this.commands,
        pageStream(delivery.page_id),
        pageDecider,
        { type: 'RecordDelivery', page_id: delivery.page_id, channel_id: delivery.channel_id, outcome, now: this.now() },
        NOTIFIER_ACTOR,
      );
    } catch (error) {
      this.onError(error);
    } finally {
      if (claimed) {
        await this.claims.release(delivery.id).catch((error: unknown) => this.onError(error));
        if (heldNow) this.inFlight.delete(key);
        else setTimeout(() => this.inFlight.delete(key), 5_000).unref();
      }
    }
  }

  /**
   * The page stream, not the read model, says whether this attempt is still to be made: the
   * delivery document may trail an outcome another notifier (or this one) has just recorded.
   */
  private async stillDue(delivery: DeliveryDocument): Promise<PageState | null> {
    const { state } = await loadState(this.commands.events, pageStream(delivery.page_id), pageDecider);
    const recorded = state.deliveries.get(delivery.channel_id);
    return recorded !== undefined && !recorded.delivered && recorded.attempts === delivery.attempts ? state : null;
  }

  /**
   * A delivery to a channel in its quiet hours is not made (unless the page is urgent): the page
   * records it held, and it is due again when the quiet hours end, when they are asked again (the
   * channel's hours may have changed meanwhile).
   */
  private async held(delivery: DeliveryDocument, page: PageState, channel: ChannelDocument | null): Promise<boolean> {
    if (page.urgent) return false;
    const quiet = channel?.quiet_hours ?? null;
    const until = quiet ? quietUntil(quiet, this.now()) : null;
    if (!quiet || !until) return false;
    await handleCommand(
      this.commands,
      pageStream(delivery.page_id),
      pageDecider,
      { type: 'HoldDelivery', page_id: delivery.page_id, channel_id: delivery.channel_id, until, time_zone: quiet.time_zone, now: this.now() },
      NOTIFIER_ACTOR,
    );
    return true;
  }

  private async send(delivery: DeliveryDocument, channel: ChannelDocument | null): Promise<{ delivered: true } | { delivered: false; error: string; next_attempt_at: string | null }> {
    if (!channel) return { delivered: false, error: 'the channel no longer exists', next_attempt_at: null };
    if (!channel.enabled) return { delivered: false, error: 'the channel is disabled', next_attempt_at: null };
    const incident = (await this.readModels.get<IncidentDocument>('incidents', delivery.incident_id))?.doc ?? null;
    const monitor = (await this.readModels.get<MonitorDocument>('monitors', delivery.monitor_id))?.doc ?? null;
    const message = pageMessage({
      pageId: delivery.page_id, channelId: delivery.channel_id, reason: delivery.reason, incidentId: delivery.incident_id,
      projectId: delivery.project_id, incident, monitor, occurredAt: delivery.created_at,
    });
    const context: DeliveryContext = { timeoutMs: this.config.timeoutMs, smtp: this.config.smtp, outbound: this.outbound, now: () => this.commands.clock() };
    try {
      await deliver(channel.type, this.secrets.openConfig(channel.config_sealed), message, context);
      this.metrics?.notificationDeliveries.inc({ type: channel.type });
      return { delivered: true };
    } catch (error) {
      this.metrics?.notificationFailures.inc({ type: channel.type });
      const text = error instanceof DeliveryError ? error.message : 'delivery failed';
      const attempt = delivery.attempts + 1;
      // A target the outbound policy refuses stays refused: failed at once, not retried for hours.
      if (attempt >= this.config.maxAttempts || (error instanceof DeliveryError && error.final)) return { delivered: false, error: text, next_attempt_at: null };
      const backoff = Math.min(MAX_BACKOFF_MS, this.config.retryBaseMs * 5 ** (attempt - 1));
      return { delivered: false, error: text, next_attempt_at: new Date(this.commands.clock().getTime() + backoff).toISOString() };
    }
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    this.outbound.close();
  }
}

/** The deliveries a fan-out starts, as the deliveries read model will hold them. */
function deliveriesOf(event: PageFannedOut): DeliveryDocument[] {
  const d = event.data;
  return d.channel_ids.map((channelId) => ({
    id: deliveryId(d.page_id, channelId), page_id: d.page_id, channel_id: channelId, incident_id: d.incident_id, monitor_id: d.monitor_id,
    project_id: d.project_id, slot: slotOf(d.monitor_id), reason: d.reason, status: 'pending', attempts: 0, next_attempt_at: d.at, last_error: null, created_at: d.at,
  }));
}
