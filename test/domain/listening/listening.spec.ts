import { type ListeningEvent, listeningDecider } from '../../../src/domain/listening/listening.js';
import { deciderSpec } from '../../support/decider.js';

const { given } = deciderSpec(listeningDecider);
const INTERVAL_MS = 2000;
const confirm = (now: string, first = false) => ({ type: 'ConfirmListening' as const, now, interval_ms: INTERVAL_MS, first });
const confirmed = (at: string, by: string): ListeningEvent => ({ type: 'ListeningConfirmed', data: { at, confirm_again_by: by } });
const interrupted = (from: string, to: string, noticed: 'START' | 'RUNNING', silent_seconds: number): ListeningEvent => ({ type: 'ListeningInterrupted', data: { from, to, noticed, silent_seconds } });

describe('Listening', () => {
  describe('when nothing was ever confirmed', () => {
    it('confirms, promising the next confirmation within two intervals, and records no outage', () =>
      given([]).when(confirm('2026-11-21T10:00:00.000Z', true)).then([confirmed('2026-11-21T10:00:00.000Z', '2026-11-21T10:00:04.000Z')]));
  });

  describe('when the last confirmation is on time', () => {
    it('confirms again, even a whole interval late', () =>
      given([confirmed('2026-11-21T10:00:00.000Z', '2026-11-21T10:00:04.000Z')])
        .when(confirm('2026-11-21T10:00:04.000Z'))
        .then([confirmed('2026-11-21T10:00:04.000Z', '2026-11-21T10:00:08.000Z')]));
  });

  describe('when the last confirmation promised another sooner', () => {
    it('records the silence since it as an outage noticed at start, then confirms', () =>
      given([confirmed('2026-11-21T10:00:00.000Z', '2026-11-21T10:00:04.000Z')])
        .when(confirm('2026-11-21T10:00:43.000Z', true))
        .then([interrupted('2026-11-21T10:00:00.000Z', '2026-11-21T10:00:43.000Z', 'START', 43), confirmed('2026-11-21T10:00:43.000Z', '2026-11-21T10:00:47.000Z')]));

    it('records one noticed while running when the loop itself ticks late (a paused process, a clock stepped forward)', () =>
      given([confirmed('2026-11-21T10:00:00.000Z', '2026-11-21T10:00:04.000Z')])
        .when(confirm('2026-11-21T10:00:30.000Z'))
        .thenEmits(['ListeningInterrupted', 'ListeningConfirmed']));

    it('starts the silence after an outage already recorded past the last confirmation (a crash between the two appends)', () =>
      given([confirmed('2026-11-21T10:00:00.000Z', '2026-11-21T10:00:04.000Z'), interrupted('2026-11-21T10:00:00.000Z', '2026-11-21T10:00:43.000Z', 'START', 43)])
        .when(confirm('2026-11-21T10:00:44.000Z', true))
        .then([interrupted('2026-11-21T10:00:43.000Z', '2026-11-21T10:00:44.000Z', 'START', 1), confirmed('2026-11-21T10:00:44.000Z', '2026-11-21T10:00:48.000Z')]));
  });

  describe('when the clock was stepped backwards', () => {
    it('records no outage for a confirmation in its future, and counts the silence after it once', () => {
      const afterOutage = [confirmed('2026-11-21T10:00:00.000Z', '2026-11-21T10:00:04.000Z'), interrupted('2026-11-21T10:00:00.000Z', '2026-11-21T10:00:43.000Z', 'START', 43), confirmed('2026-11-21T10:00:43.000Z', '2026-11-21T10:00:47.000Z')];
      given(afterOutage).when(confirm('2026-11-21T10:00:20.000Z')).then([confirmed('2026-11-21T10:00:20.000Z', '2026-11-21T10:00:24.000Z')]);
      // Back at the time it had reached, no silence is counted twice: only what follows the outage's end.
      given([...afterOutage, confirmed('2026-11-21T10:00:20.000Z', '2026-11-21T10:00:24.000Z')])
        .when(confirm('2026-11-21T10:00:44.000Z'))
        .then([interrupted('2026-11-21T10:00:43.000Z', '2026-11-21T10:00:44.000Z', 'RUNNING', 1), confirmed('2026-11-21T10:00:44.000Z', '2026-11-21T10:00:48.000Z')]);
    });
  });
});
