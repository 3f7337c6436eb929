import type { PageReason } from '../src/domain/notifications/page.js';
import type { Projection, Target } from '../src/projector/projection.js';
import { slotOf } from '../src/coordination/partitions.js';

/** Pages decided but not yet fanned out to channels. Gone once fanned out. */
export interface PendingPageDocument {
  id: string;
  incident_id: string;
  monitor_id: string;
  project_id: string;
  /** The monitor's work slot: which notifier instance fans the page out (see src/coordination). */
  slot: number;
  reason: PageReason;
  at: string;
}

export const pendingPagesProjection: Projection<PendingPageDocument> = {
  name: 'pending_pages',
  version: 2,
  collection: { name: 'pending_pages', indexes: [{ fields: ['at'] }] },
  // A deleted monitor's streams leave the log, pages included: its pending pages go too. Its
  // deletion fans them out first, into their own streams (src/app/monitor-deletion.ts).
  handles: ['PageScheduled', 'PageFannedOut', 'MonitorDeleted'],
  targets(event): Target {
    if (event.type === 'MonitorDeleted') return { where: { monitor_id: event.data.monitor_id } };
    return { ids: 'page_id' in event.data ? [event.data.page_id] : [] };
  },
  apply(_doc, event) {
    if (event.type !== 'PageScheduled') return null;
    const { page_id, incident_id, monitor_id, project_id, reason, at } = event.data;
    return { id: page_id, incident_id, monitor_id, project_id, slot: slotOf(monitor_id), reason, at };
  },
};

/** Deliveries not yet made: one per page and channel, retried until delivered or given up. */
export interface DeliveryDocument {
  id: string;
  page_id: string;
  channel_id: string;
  incident_id: string;
  monitor_id: string;
  project_id: string;
  /** The monitor's work slot: which notifier instance makes the delivery. */
  slot: number;
  reason: PageReason;
  status: 'pending' | 'failed';
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  created_at: string;
}

export const deliveryId = (pageId: string, channelId: string) => `${pageId}|${channelId}`;

export const deliveriesProjection: Projection<DeliveryDocument> = {
  name: 'deliveries',
  version: 3,
  collection: { name: 'deliveries', indexes: [{ fields: ['status', 'next_attempt_at'] }] },
  handles: ['PageFannedOut', 'PageDelivered', 'PageDeliveryFailed', 'DeliveryHeld'],
  targets(event): Target {
    switch (event.type) {
      case 'PageFannedOut':
        return { ids: event.data.channel_ids.map((channelId) => deliveryId(event.data.page_id, channelId)) };
      case 'PageDelivered':
      case 'PageDeliveryFailed':
      case 'DeliveryHeld':
        return { ids: [deliveryId(event.data.page_id, event.data.channel_id)] };
      default:
        return { ids: [] };
    }
  },
  apply(doc, event, id) {
    switch (event.type) {
      case 'PageFannedOut': {
        const d = event.data;
        const channelId = id.slice(d.page_id.length + 1);
        return {
          id, page_id: d.page_id, channel_id: channelId, incident_id: d.incident_id, monitor_id: d.monitor_id, project_id: d.project_id, slot: slotOf(d.monitor_id), reason: d.reason,
          status: 'pending', attempts: 0, next_attempt_at: d.at, last_error: null, created_at: d.at,
        };
      }
      case 'PageDelivered':
        return null;
      case 'PageDeliveryFailed':
        return doc && {
          ...doc,
          attempts: event.data.attempt,
          last_error: event.data.error,
          next_attempt_at: event.data.next_attempt_at,
          status: event.data.next_attempt_at === null ? 'failed' : 'pending',
        };
      case 'DeliveryHeld':
        // Held for quiet hours: due again when they end, its attempts not counted.
        return doc && { ...doc, next_attempt_at: event.data.until };
      default:
        return doc;
    }
  },
};
