import type { PageEvent } from '../../../src/domain/notifications/page.js';
import { pageDecider } from '../../../src/domain/notifications/page.js';
import { deciderSpec } from '../../support/decider.js';

const ids = { page_id: 'pg-1', project_id: 'p-1', incident_id: 'i-1', monitor_id: 'm-1' };
const fanOut = { ...ids, reason: 'opened' as const, channel_ids: ['c-1'], at: '2026-11-27T21:30:00.000Z' };
const fannedOut: PageEvent = { type: 'PageFannedOut', data: fanOut };
const until = '2026-11-28T06:00:00.000Z';
const hold = { type: 'HoldDelivery' as const, page_id: 'pg-1', channel_id: 'c-1', until, time_zone: 'Europe/Berlin', now: '2026-11-27T21:30:00.000Z' };
const held: PageEvent = { type: 'DeliveryHeld', data: { ...ids, channel_id: 'c-1', until, time_zone: 'Europe/Berlin', at: hold.now } };

describe('Page', () => {
  const { given } = deciderSpec(pageDecider);

  describe('held for quiet hours', () => {
    it('records a delivery held until the quiet hours end, once per window', () => {
      given([fannedOut]).when(hold).then([held]);
      given([fannedOut, held]).when({ ...hold, now: '2026-11-27T22:00:00.000Z' }).then([]);
      given([fannedOut, held]).when({ ...hold, until: '2026-11-29T06:00:00.000Z' }).thenEmits(['DeliveryHeld']);
    });

    it('never holds an urgent page (a fan-out that says urgent: true)', () => {
      const urgentData = { ...fanOut, urgent: true };
      given([{ type: 'PageFannedOut', data: urgentData }]).when(hold).then([]);
    });

    it('holds nothing already delivered or not part of the page', () => {
      const delivered: PageEvent = { type: 'PageDelivered', data: { ...ids, channel_id: 'c-1', attempt: 1, at: until } };
      given([fannedOut, delivered]).when(hold).then([]);
      given([fannedOut]).when({ ...hold, channel_id: 'c-2' }).then([]);
    });

    it('counts no attempt for a hold: the delivery after it is attempt 1', () => {
      given([fannedOut, held]).when({ type: 'RecordDelivery', page_id: 'pg-1', channel_id: 'c-1', outcome: { delivered: true }, now: until })
        .then([{ type: 'PageDelivered', data: { ...ids, channel_id: 'c-1', attempt: 1, at: until } }]);
    });
  });
});
