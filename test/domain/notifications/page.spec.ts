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

  describe('fanned out', () => {
    const fanOutPage = { type: 'FanOutPage' as const, ...ids, reason: 'opened' as const, channel_ids: ['c-1', 'c-2', 'c-1'], now: fanOut.at };

    it('fans out once to the channels routed at that moment, each named once', () => {
      given([]).when(fanOutPage).then([{ type: 'PageFannedOut', data: { ...fanOut, channel_ids: ['c-1', 'c-2'] } }]);
      given([fannedOut]).when({ ...fanOutPage, channel_ids: ['c-3'] }).then([]);
    });

    it('marks the fan-out of an urgent step urgent, and says nothing of urgency otherwise', () => {
      given([]).when({ ...fanOutPage, channel_ids: ['c-1'], urgent: true }).then([{ type: 'PageFannedOut', data: { ...fanOut, urgent: true } }]);
      given([]).when({ ...fanOutPage, channel_ids: ['c-1'], urgent: false }).then([fannedOut]);
    });
  });

  describe('delivered', () => {
    const record = { type: 'RecordDelivery' as const, page_id: 'pg-1', channel_id: 'c-1', now: until };
    const failure = { delivered: false as const, error: 'HTTP 502', next_attempt_at: '2026-11-28T06:01:00.000Z' };
    const failed: PageEvent = { type: 'PageDeliveryFailed', data: { ...ids, channel_id: 'c-1', attempt: 1, error: 'HTTP 502', next_attempt_at: failure.next_attempt_at, at: until } };

    it('counts each attempt: a failure, then the delivery as attempt 2', () => {
      given([fannedOut]).when({ ...record, outcome: failure }).then([failed]);
      given([fannedOut, failed]).when({ ...record, outcome: { delivered: true } })
        .then([{ type: 'PageDelivered', data: { ...ids, channel_id: 'c-1', attempt: 2, at: until } }]);
    });

    it('records giving up after the last attempt as a failure with no next attempt', () => {
      given([fannedOut, failed]).when({ ...record, outcome: { ...failure, next_attempt_at: null } })
        .then([{ type: 'PageDeliveryFailed', data: { ...failed.data, attempt: 2, next_attempt_at: null } }]);
    });

    it('records nothing for a channel already delivered (another notifier sent it) or not part of the page', () => {
      const delivered: PageEvent = { type: 'PageDelivered', data: { ...ids, channel_id: 'c-1', attempt: 1, at: until } };
      given([fannedOut, delivered]).when({ ...record, outcome: { delivered: true } }).then([]);
      given([fannedOut]).when({ ...record, channel_id: 'c-2', outcome: { delivered: true } }).then([]);
      given([]).when({ ...record, outcome: { delivered: true } }).then([]);
    });
  });

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
