import { expect } from 'chai';
import rrule from 'rrule';
import { nextExpectedAfter, nextExpectedAfterCheckIn, parseInterval, scheduleProblem } from '../../../src/domain/monitors/schedule.js';

const next = (schedule: string, timezone: string, from: string) => nextExpectedAfter('JOB_CRON', schedule, timezone, from);
const chain = (schedule: string, timezone: string, from: string, n: number) => {
  const times: string[] = [];
  let at = from;
  for (let i = 0; i < n; i++) times.push((at = next(schedule, timezone, at)!));
  return times;
};

describe('Schedules', () => {
  describe('JOB_CRON across daylight-saving changes (Europe/Berlin)', () => {
    it('runs a time skipped by the spring-forward gap once, at the first valid instant after it (03:00 local)', () =>
      expect(chain('30 2 * * *', 'Europe/Berlin', '2026-03-28T12:00:00.000Z', 3)).to.deep.equal([
        '2026-03-29T01:00:00.000Z',
        '2026-03-30T00:30:00.000Z',
        '2026-03-31T00:30:00.000Z',
      ]));

    it('runs a time in the repeated fall-back hour once', () =>
      expect(chain('30 2 * * *', 'Europe/Berlin', '2026-10-24T12:00:00.000Z', 3)).to.deep.equal([
        '2026-10-25T00:30:00.000Z',
        '2026-10-26T01:30:00.000Z',
        '2026-10-27T01:30:00.000Z',
      ]));

    it('runs an RRULE time in the repeated fall-back hour once too, at its first occurrence', () =>
      expect(chain('RRULE:FREQ=DAILY;BYHOUR=2;BYMINUTE=30;BYSECOND=0', 'Europe/Berlin', '2026-10-24T12:00:00.000Z', 3)).to.deep.equal([
        '2026-10-25T00:30:00.000Z',
        '2026-10-26T01:30:00.000Z',
        '2026-10-27T01:30:00.000Z',
      ]));

    it('keeps a sub-hourly schedule on real time through the repeated hour', () =>
      expect(chain('0 * * * *', 'Europe/Berlin', '2026-10-24T23:30:00.000Z', 4)).to.deep.equal([
        '2026-10-25T00:00:00.000Z',
        '2026-10-25T01:00:00.000Z',
        '2026-10-25T02:00:00.000Z',
        '2026-10-25T03:00:00.000Z',
      ]));
  });

  it('keeps an RRULE on the occurrences counted from its 2020 anchor, however near `from` it starts walking', () => {
    const rules = [
      'RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0',
      'RRULE:FREQ=DAILY;INTERVAL=9;BYHOUR=9;BYMINUTE=0;BYSECOND=0',
      'RRULE:FREQ=MONTHLY;INTERVAL=5;BYMONTHDAY=13;BYHOUR=9;BYMINUTE=0;BYSECOND=0',
      'RRULE:FREQ=YEARLY;INTERVAL=3;BYMONTH=7;BYMONTHDAY=4;BYHOUR=9;BYMINUTE=0;BYSECOND=0',
      'RRULE:FREQ=MONTHLY;BYDAY=FR;BYSETPOS=-1;BYHOUR=9;BYMINUTE=0;BYSECOND=0',
    ];
    for (const rule of rules) {
      const fromAnchor = rrule.rrulestr(`DTSTART;TZID=America/New_York:20200101T000000\n${rule}`);
      for (const from of ['2026-11-21T10:00:00.000Z', '2027-02-28T23:00:00.000Z', '2029-07-04T12:00:00.000Z']) {
        expect(next(rule, 'America/New_York', from), `${rule} after ${from}`).to.equal(fromAnchor.after(new Date(from), false)?.toISOString());
      }
    }
  });

  it('evaluates macros in the zone: @daily is midnight in Tokyo', () => expect(next('@daily', 'Asia/Tokyo', '2026-11-21T16:00:00.000Z')).to.equal('2026-11-22T15:00:00.000Z'));

  it('accepts an RRULE for calendars cron cannot say: the last weekday of the month at 18:00 local', () => {
    const rule = 'RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;BYHOUR=18;BYMINUTE=0;BYSECOND=0';
    expect(scheduleProblem('JOB_CRON', rule, 'Europe/Berlin')).to.equal(null);
    expect(chain(rule, 'Europe/Berlin', '2026-02-15T00:00:00.000Z', 3)).to.deep.equal([
      '2026-02-27T17:00:00.000Z',
      '2026-03-31T16:00:00.000Z',
      '2026-04-30T16:00:00.000Z',
    ]);
  });

  it('refuses RRULEs finer than daily, malformed ones, and cron with the wrong number of fields', () => {
    expect(scheduleProblem('JOB_CRON', 'RRULE:FREQ=MINUTELY', 'UTC')).to.match(/RRULE/);
    expect(scheduleProblem('JOB_CRON', 'RRULE:FREQ=SOMETIMES', 'UTC')).to.match(/RRULE/);
    expect(scheduleProblem('JOB_CRON', '0 0 * * * *', 'UTC')).to.match(/five-field/);
    expect(scheduleProblem('JOB_CRON', '@reboot', 'UTC')).to.match(/five-field/);
  });

  it('reads intervals from 1 s to 365 d', () => {
    expect(parseInterval('30s')).to.equal(30_000);
    expect(parseInterval('2w')).to.equal(14 * 86_400_000);
    expect(parseInterval('365d')).to.equal(365 * 86_400_000);
    for (const bad of ['0s', '366d', '5 m', '1y', '-1h']) expect(parseInterval(bad), bad).to.equal(null);
  });

  describe('early check-ins (clock skew)', () => {
    it('counts a check-in up to 60 s before a cron slot for that slot', () => {
      expect(nextExpectedAfterCheckIn('JOB_CRON', '0 3 * * *', 'UTC', '2026-11-22T02:59:00.000Z')).to.equal('2026-11-23T03:00:00.000Z');
      expect(nextExpectedAfterCheckIn('JOB_CRON', '0 3 * * *', 'UTC', '2026-11-22T02:58:59.000Z')).to.equal('2026-11-22T03:00:00.000Z');
    });

    it('never skips a slot of a schedule whose slots are closer than two windows', () =>
      expect(nextExpectedAfterCheckIn('JOB_CRON', '* * * * *', 'UTC', '2026-11-22T02:59:30.000Z')).to.equal('2026-11-22T03:00:00.000Z'));
  });
});
