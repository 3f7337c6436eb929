import { expect } from 'chai';
import { type QuietHours, quietHoursProblem, quietUntil, wallClock } from '../../../src/domain/notifications/quiet-hours.js';

const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6];
const nights = (time_zone: string, days = EVERY_DAY): QuietHours => ({ days, start: '22:00', end: '07:00', time_zone });

describe('Quiet hours', () => {
  describe('in Europe/Berlin', () => {
    const berlin = nights('Europe/Berlin');

    it('holds a night from 22:00 to 07:00 local time, the end not included', () => {
      expect(quietUntil(berlin, '2026-11-27T21:00:00.000Z')).to.equal('2026-11-28T06:00:00.000Z');
      expect(quietUntil(berlin, '2026-11-28T02:30:00.000Z')).to.equal('2026-11-28T06:00:00.000Z');
      expect(quietUntil(berlin, '2026-11-28T06:00:00.000Z')).to.equal(null);
      expect(quietUntil(berlin, '2026-11-27T20:59:59.000Z')).to.equal(null);
      expect(quietUntil(berlin, '2026-11-28T12:00:00.000Z')).to.equal(null);
    });

    it('ends at 07:00 summer time on the night the clocks go forward (a night one hour shorter)', () => {
      // Saturday 28 March 2026, 23:00 CET; the clocks go from 02:00 CET to 03:00 CEST.
      expect(quietUntil(berlin, '2026-03-28T22:00:00.000Z')).to.equal('2026-03-29T05:00:00.000Z');
      expect(quietUntil(berlin, '2026-03-29T04:59:00.000Z')).to.equal('2026-03-29T05:00:00.000Z');
      expect(quietUntil(berlin, '2026-03-29T05:00:00.000Z')).to.equal(null);
    });

    it('ends at 07:00 winter time on the night the clocks go back (a night one hour longer)', () => {
      // Saturday 24 October 2026, 23:00 CEST; at 03:00 CEST the clocks go back to 02:00 CET.
      expect(quietUntil(berlin, '2026-10-24T21:00:00.000Z')).to.equal('2026-10-25T06:00:00.000Z');
      expect(quietUntil(berlin, '2026-10-25T05:30:00.000Z')).to.equal('2026-10-25T06:00:00.000Z');
      expect(quietUntil(berlin, '2026-10-25T06:00:00.000Z')).to.equal(null);
    });

    it('starts a window that opens inside the spring-forward gap when the gap ends', () => {
      const early: QuietHours = { days: [0], start: '02:30', end: '04:00', time_zone: 'Europe/Berlin' };
      expect(quietUntil(early, '2026-03-29T00:45:00.000Z')).to.equal(null);
      expect(quietUntil(early, '2026-03-29T01:00:00.000Z')).to.equal('2026-03-29T02:00:00.000Z');
    });
  });

  describe('in America/New_York', () => {
    const small: QuietHours = { days: [0], start: '00:30', end: '03:30', time_zone: 'America/New_York' };

    it('lasts two hours on the Sunday the clocks go forward', () => {
      // 8 March 2026: 00:30 EST is 05:30Z, 03:30 EDT is 07:30Z.
      expect(quietUntil(small, '2026-03-08T05:29:00.000Z')).to.equal(null);
      expect(quietUntil(small, '2026-03-08T05:30:00.000Z')).to.equal('2026-03-08T07:30:00.000Z');
      expect(quietUntil(small, '2026-03-08T07:15:00.000Z')).to.equal('2026-03-08T07:30:00.000Z');
    });

    it('lasts four hours on the Sunday the clocks go back, through both 01:30s', () => {
      // 1 November 2026: 00:30 EDT is 04:30Z, 03:30 EST is 08:30Z.
      expect(quietUntil(small, '2026-11-01T04:30:00.000Z')).to.equal('2026-11-01T08:30:00.000Z');
      expect(quietUntil(small, '2026-11-01T05:30:00.000Z')).to.equal('2026-11-01T08:30:00.000Z');
      expect(quietUntil(small, '2026-11-01T06:30:00.000Z')).to.equal('2026-11-01T08:30:00.000Z');
      expect(quietUntil(small, '2026-11-01T08:30:00.000Z')).to.equal(null);
    });
  });

  it('counts a window past midnight as the day it starts on', () => {
    const fridayNight = nights('America/New_York', [5]);
    // Friday 27 November 2026 23:00 EST and Saturday 03:00 EST: inside; Saturday 23:00: not a listed day.
    expect(quietUntil(fridayNight, '2026-11-28T04:00:00.000Z')).to.equal('2026-11-28T12:00:00.000Z');
    expect(quietUntil(fridayNight, '2026-11-28T08:00:00.000Z')).to.equal('2026-11-28T12:00:00.000Z');
    expect(quietUntil(fridayNight, '2026-11-29T04:00:00.000Z')).to.equal(null);
    // Thursday 23:00 EST: Thursday is not listed either.
    expect(quietUntil(fridayNight, '2026-11-27T04:00:00.000Z')).to.equal(null);
  });

  it('treats whole days that meet as one stretch, ending when the last one does', () => {
    const weekend: QuietHours = { days: [6, 0], start: '00:00', end: '00:00', time_zone: 'Europe/Berlin' };
    expect(quietUntil(weekend, '2026-11-28T10:00:00.000Z')).to.equal('2026-11-29T23:00:00.000Z');
    expect(quietUntil(weekend, '2026-11-30T10:00:00.000Z')).to.equal(null);
  });

  it('names the field that is wrong', () => {
    const good = nights('Europe/Berlin');
    expect(quietHoursProblem(good)).to.equal(null);
    expect(quietHoursProblem({ ...good, days: [] })).to.match(/^quiet_hours\.days: /);
    expect(quietHoursProblem({ ...good, days: [1, 7] })).to.match(/^quiet_hours\.days\[1\]: /);
    expect(quietHoursProblem({ ...good, days: [1, 1] })).to.match(/^quiet_hours\.days: a day is listed twice/);
    expect(quietHoursProblem({ ...good, start: '24:00' })).to.match(/^quiet_hours\.start: /);
    expect(quietHoursProblem({ ...good, end: '7:00' })).to.match(/^quiet_hours\.end: /);
    expect(quietHoursProblem({ ...good, time_zone: 'Mars/Olympus' })).to.match(/^quiet_hours\.time_zone: /);
  });

  it('tells an instant as the wall clock of the zone', () => {
    expect(wallClock('2026-03-29T05:00:00.000Z', 'Europe/Berlin')).to.equal('07:00');
    expect(wallClock('2026-11-28T06:00:00.000Z', 'Europe/Berlin')).to.equal('07:00');
  });
});
