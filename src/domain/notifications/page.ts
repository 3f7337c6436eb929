import type { Decider, DomainEvent } from '../decider.js';

export type PageReason = 'opened' | 'repage' | 'acknowledged' | 'resolved';
type Ids = { page_id: string; project_id: string };

/**
 * A page's deliveries: fanned out once to the channels that were routed at that moment, then
 * each delivered at least once. Outcomes are events, so a restarted notifier resends nothing
 * already delivered and forgets nothing still pending.
 */
export type PageEvent =
  /** `urgent`: a page of an escalation's urgent step; absent (every page before escalations) means false. */
  | DomainEvent<'PageFannedOut', Ids & { incident_id: string; monitor_id: string; reason: PageReason; channel_ids: string[]; at: string; urgent?: boolean }>
  | DomainEvent<'PageDelivered', Ids & { incident_id: string; monitor_id: string; channel_id: string; attempt: number; at: string }>
  /** `next_attempt_at` null: given up after the last attempt. */
  | DomainEvent<
      'PageDeliveryFailed',
      Ids & { incident_id: string; monitor_id: string; channel_id: string; attempt: number; error: string; next_attempt_at: string | null; at: string }
    >
  /** Not sent because the channel's quiet hours held `at`: due again at `until` (told in `time_zone`, the quiet hours' zone). */
  | DomainEvent<'DeliveryHeld', Ids & { incident_id: string; monitor_id: string; channel_id: string; until: string; time_zone: string; at: string }>;

export type PageCommand =
  | { type: 'FanOutPage'; page_id: string; project_id: string; incident_id: string; monitor_id: string; reason: PageReason; channel_ids: string[]; now: string; urgent?: boolean }
  | { type: 'RecordDelivery'; page_id: string; channel_id: string; outcome: { delivered: true } | { delivered: false; error: string; next_attempt_at: string | null }; now: string }
  | { type: 'HoldDelivery'; page_id: string; channel_id: string; until: string; time_zone: string; now: string };

/**
 * Whether a fan-out's page is urgent (an urgent escalation step's): such a page is never held for
 * quiet hours. Fan-outs recorded before pages could be urgent have no such field: not urgent.
 */
export const isUrgentFanOut = (data: object): boolean => 'urgent' in data && data.urgent === true;

export interface PageState {
  fannedOut: boolean;
  projectId: string;
  incidentId: string;
  monitorId: string;
  urgent: boolean;
  deliveries: ReadonlyMap<string, { delivered: boolean; attempts: number; heldUntil: string | null }>;
}

export const pageStream = (pageId: string) => `page-${pageId}`;

export const pageDecider: Decider<PageCommand, PageState, PageEvent> = {
  initialState: () => ({ fannedOut: false, projectId: '', incidentId: '', monitorId: '', urgent: false, deliveries: new Map() }),
  evolve(state, event) {
    switch (event.type) {
      case 'PageFannedOut':
        return {
          fannedOut: true,
          projectId: event.data.project_id,
          incidentId: event.data.incident_id,
          monitorId: event.data.monitor_id,
          urgent: isUrgentFanOut(event.data),
          deliveries: new Map(event.data.channel_ids.map((id) => [id, { delivered: false, attempts: 0, heldUntil: null }])),
        };
      case 'PageDelivered':
      case 'PageDeliveryFailed': {
        const deliveries = new Map(state.deliveries);
        deliveries.set(event.data.channel_id, { delivered: event.type === 'PageDelivered', attempts: event.data.attempt, heldUntil: null });
        return { ...state, deliveries };
      }
      case 'DeliveryHeld': {
        const held = state.deliveries.get(event.data.channel_id);
        if (!held) return state;
        const deliveries = new Map(state.deliveries);
        deliveries.set(event.data.channel_id, { ...held, heldUntil: event.data.until });
        return { ...state, deliveries };
      }
      default: {
        const exhaustive: never = event;
        return exhaustive;
      }
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'FanOutPage': {
        if (state.fannedOut) return [];
        const { page_id, project_id, incident_id, monitor_id, reason, now } = command;
        const urgent = command.urgent === true ? { urgent: true } : {};
        return [{ type: 'PageFannedOut', data: { page_id, project_id, incident_id, monitor_id, reason, channel_ids: [...new Set(command.channel_ids)], at: now, ...urgent } }];
      }
      case 'RecordDelivery': {
        const delivery = state.deliveries.get(command.channel_id);
        // Not part of this page, or already delivered by another notifier: nothing to record.
        if (!delivery || delivery.delivered) return [];
        const ids = {
          page_id: command.page_id, project_id: state.projectId, incident_id: state.incidentId, monitor_id: state.monitorId,
          channel_id: command.channel_id, attempt: delivery.attempts + 1, at: command.now,
        };
        return command.outcome.delivered
          ? [{ type: 'PageDelivered', data: ids }]
          : [{ type: 'PageDeliveryFailed', data: { ...ids, error: command.outcome.error, next_attempt_at: command.outcome.next_attempt_at } }];
      }
      case 'HoldDelivery': {
        const delivery = state.deliveries.get(command.channel_id);
        // An urgent page goes out whatever the hour; a held delivery is held once per window.
        if (state.urgent || !delivery || delivery.delivered || delivery.heldUntil === command.until) return [];
        return [{
          type: 'DeliveryHeld',
          data: {
            page_id: command.page_id, project_id: state.projectId, incident_id: state.incidentId, monitor_id: state.monitorId,
            channel_id: command.channel_id, until: command.until, time_zone: command.time_zone, at: command.now,
          },
        }];
      }
      default: {
        const exhaustive: never = command;
        return exhaustive;
      }
    }
  },
};
