import { expect } from 'chai';
import rrule from 'rrule';
import { MAX_COUNT, MAX_OCCURRENCES_PER_PERIOD } from '../../../src/domain/monitors/rrule-parts.js';
import { nextExpectedAfter, nextExpectedAfterCheckIn, parseInterval, scheduleProblem, upcomingSlots, wallTimeAsUtcMs } from '../../../src/domain/monitors/schedule.js';

const NOW = '2026-11-21T12:00:00.000Z';
const cronProblem = (schedule: string, now = NOW, timezone = 'UTC') => scheduleProblem('JOB_CRON', schedule, timezone, now);

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

    it('runs an RRULE time skipped by the spring-forward gap at the first valid instant after it, as cron does', () =>
      expect(chain('RRULE:FREQ=DAILY;BYHOUR=2;BYMINUTE=30;BYSECOND=0', 'Europe/Berlin', '2026-03-28T12:00:00.000Z', 3)).to.deep.equal([
        '2026-03-29T01:00:00.000Z',
        '2026-03-30T00:30:00.000Z',
        '2026-03-31T00:30:00.000Z',
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
    // rrule walked from the anchor in New York's wall time, written as UTC (with a TZID, rrule's
    // instants depend on the zone of the process running it).
    const wall = (iso: string) => wallTimeAsUtcMs(new Date(iso), 'America/New_York');
    for (const rule of rules) {
      const fromAnchor = rrule.rrulestr(`DTSTART:20200101T000000Z\n${rule}`);
      for (const from of ['2026-11-21T10:00:00.000Z', '2027-02-28T23:00:00.000Z', '2029-07-04T12:00:00.000Z']) {
        expect(wall(next(rule, 'America/New_York', from)!), `${rule} after ${from}`).to.equal(fromAnchor.after(new Date(wall(from)), false)?.getTime());
      }
    }
  });

  it('evaluates macros in the zone: @daily is midnight in Tokyo', () => expect(next('@daily', 'Asia/Tokyo', '2026-11-21T16:00:00.000Z')).to.equal('2026-11-22T15:00:00.000Z'));

  it('accepts an RRULE for calendars cron cannot say: the last weekday of the month at 18:00 local', () => {
    const rule = 'RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;BYHOUR=18;BYMINUTE=0;BYSECOND=0';
    expect(cronProblem(rule, NOW, 'Europe/Berlin')).to.equal(null);
    expect(chain(rule, 'Europe/Berlin', '2026-02-15T00:00:00.000Z', 3)).to.deep.equal([
      '2026-02-27T17:00:00.000Z',
      '2026-03-31T16:00:00.000Z',
      '2026-04-30T16:00:00.000Z',
    ]);
  });

  it('refuses RRULEs finer than daily, malformed ones, and cron with the wrong number of fields', () => {
    expect(cronProblem('RRULE:FREQ=MINUTELY')).to.equal('schedule: RRULE FREQ=MINUTELY is finer than daily; use a cron expression for that');
    expect(cronProblem('RRULE:FREQ=SOMETIMES')).to.equal('schedule: RRULE FREQ must be YEARLY, MONTHLY, WEEKLY or DAILY, got SOMETIMES');
    expect(cronProblem('0 0 * * * *')).to.match(/five-field/);
    expect(cronProblem('@reboot')).to.match(/five-field/);
  });

  describe('a JOB_CRON schedule that never fires', () => {
    it('is refused, saying which day does not exist', () => {
      expect(cronProblem('0 0 31 2 *')).to.equal('schedule: "0 0 31 2 *" never fires (February has no 31st)');
      expect(cronProblem('0 0 30 2 *')).to.equal('schedule: "0 0 30 2 *" never fires (February has no 30th)');
      expect(cronProblem('0 0 30,31 FEB *')).to.equal('schedule: "0 0 30,31 FEB *" never fires (February has no 30th or 31st)');
      expect(cronProblem('0 0 31 2,4 *')).to.equal('schedule: "0 0 31 2,4 *" never fires (February and April have no 31st)');
      expect(cronProblem('RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30')).to.equal('schedule: "RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30" never fires (February has no 30th)');
    });

    it('is refused when its occurrences miss each other, with no one day to blame', () => {
      // Every 7th day from Wednesday 2020-01-01 is a Wednesday; week 1 is never in June.
      expect(cronProblem('RRULE:FREQ=DAILY;INTERVAL=7;BYDAY=TU')).to.equal('schedule: "RRULE:FREQ=DAILY;INTERVAL=7;BYDAY=TU" has no occurrence in the next 8 years');
      expect(cronProblem('RRULE:FREQ=YEARLY;BYWEEKNO=1;BYMONTH=6')).to.match(/has no occurrence in the next 8 years$/);
    });

    it('looks no further than it must: a daily RRULE on February 30th is answered without walking to the year 9999', () =>
      // rrule alone takes ~35 s for this one (see the mocha timeout).
      expect(cronProblem('RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30')).to.match(/never fires \(February has no 30th\)$/));

    it('is refused when the next time is more than 8 years away', () =>
      expect(cronProblem('0 0 * 2 1#5')).to.equal('schedule: "0 0 * 2 1#5" does not fire in the next 8 years (next at 2044-02-29T00:00:00.000Z)'));

    it('accepts February 29th, even across 2100, which is no leap year', () => {
      expect(cronProblem('0 0 29 2 *')).to.equal(null);
      expect(cronProblem('RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29')).to.equal(null);
      expect(cronProblem('0 0 29 2 *', '2096-03-01T00:00:00.000Z')).to.equal(null);
      expect(cronProblem('RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29', '2096-03-01T00:00:00.000Z')).to.equal(null);
      expect(next('RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29', 'UTC', '2096-03-01T00:00:00.000Z')).to.equal('2104-02-29T00:00:00.000Z');
    });

    it('is refused when its COUNT or UNTIL is used up by `now`, and accepted while it is not', () => {
      expect(cronProblem('RRULE:FREQ=DAILY;COUNT=3')).to.equal(
        `schedule: the RRULE's COUNT=3 is used up (occurrences count from 2020-01-01): it has no occurrence after ${NOW}`,
      );
      expect(cronProblem('RRULE:FREQ=DAILY;UNTIL=20210101T000000Z')).to.equal(`schedule: the RRULE's UNTIL=20210101T000000Z is used up: it has no occurrence after ${NOW}`);
      expect(cronProblem('RRULE:FREQ=DAILY;COUNT=3', '2020-01-02T12:00:00.000Z')).to.equal(null);
      expect(cronProblem('RRULE:FREQ=DAILY;UNTIL=20270101T000000Z')).to.equal(null);
    });
  });

  describe('RRULE parts', () => {
    it('refuses each part out of its range, naming the part, its range and the value', () => {
      const refusals: [string, string][] = [
        ['BYHOUR=99', 'BYHOUR values must be 0 to 23, got 99'],
        ['BYHOUR=1,,2', 'BYHOUR values must be 0 to 23, got an empty value'],
        ['BYHOUR=1.5', 'BYHOUR values must be 0 to 23, got 1.5'],
        ['BYMINUTE=60', 'BYMINUTE values must be 0 to 59, got 60'],
        ['BYSECOND=60', 'BYSECOND values must be 0 to 59, got 60'],
        ['BYMONTH=13', 'BYMONTH values must be 1 to 12, got 13'],
        ['BYMONTH=0', 'BYMONTH values must be 1 to 12, got 0'],
        ['BYMONTHDAY=0', 'BYMONTHDAY values must be 1 to 31 or -31 to -1, got 0'],
        ['BYMONTHDAY=-32', 'BYMONTHDAY values must be 1 to 31 or -31 to -1, got -32'],
        ['INTERVAL=0', 'INTERVAL must be at least 1, got 0'],
        ['INTERVAL=-1', 'INTERVAL must be at least 1, got -1'],
        ['INTERVAL=abc', 'INTERVAL must be a whole number, got abc'],
        ['COUNT=0', 'COUNT must be at least 1, got 0'],
        ['UNTIL=20270231', 'UNTIL must be a date such as 20271231 or a UTC time such as 20271231T235959Z, got 20270231'],
        ['WKST=XX', 'WKST must be one of MO, TU, WE, TH, FR, SA, SU, got XX'],
        ['BYDAY=XY', 'BYDAY values must be weekdays such as MO, 1MO (the first Monday) or -1FR (the last Friday), got XY'],
        ['BYDAY=1MO', 'BYDAY ordinals such as 1MO need FREQ=MONTHLY or FREQ=YEARLY'],
        ['BYSETPOS=1', 'BYSETPOS picks from the set other BY… parts make, and this rule has none'],
        ['BYWEEKNO=1', 'BYWEEKNO is only allowed with FREQ=YEARLY'],
        ['BYYEARDAY=1', 'BYYEARDAY is only allowed with FREQ=YEARLY'],
        ['FOO=1', 'has an unknown part FOO; the parts are FREQ, UNTIL, COUNT, INTERVAL, BYDAY, WKST, BYSECOND, BYMINUTE, BYHOUR, BYMONTH, BYMONTHDAY, BYYEARDAY, BYWEEKNO, BYSETPOS'],
        ['BYEASTER=0', 'has an unknown part BYEASTER; the parts are FREQ, UNTIL, COUNT, INTERVAL, BYDAY, WKST, BYSECOND, BYMINUTE, BYHOUR, BYMONTH, BYMONTHDAY, BYYEARDAY, BYWEEKNO, BYSETPOS'],
        ['FREQ=WEEKLY', 'gives FREQ more than once'],
        ['COUNT=2;UNTIL=20300101', 'takes COUNT or UNTIL, not both'],
        ['', 'has an empty part (two semicolons, or one at the end)'],
      ];
      for (const [part, message] of refusals) expect(cronProblem(`RRULE:FREQ=DAILY;${part}`), part).to.equal(`schedule: RRULE ${message}`);
      expect(cronProblem('RRULE:FREQ=MONTHLY;BYDAY=6MO')).to.equal('schedule: RRULE BYDAY ordinals must be 1 to 5 or -5 to -1 with FREQ=MONTHLY, got 6MO');
      expect(cronProblem('RRULE:FREQ=WEEKLY;BYMONTHDAY=1')).to.equal('schedule: RRULE BYMONTHDAY is not allowed with FREQ=WEEKLY');
      expect(cronProblem('RRULE:INTERVAL=2')).to.equal('schedule: RRULE needs a FREQ (YEARLY, MONTHLY, WEEKLY or DAILY)');
      expect(cronProblem('RRULE:FREQ=DAILY;DTSTART=20200101')).to.match(/^schedule: an RRULE takes no DTSTART or TZID/);
    });

    it('refuses a rule with more occurrences a period than MAX_OCCURRENCES_PER_PERIOD, or times less than a minute apart, saying why', () => {
      const until = (n: number, from = 0) => Array.from({ length: n }, (_, i) => i + from).join(',');
      const everyDay = 'BYDAY=MO,TU,WE,TH,FR,SA,SU';
      // The rules of issue 37: accepted once, then walked 86,400 (or 5,508) occurrences a day from January 1st.
      expect(cronProblem(`RRULE:FREQ=YEARLY;${everyDay};BYHOUR=${until(24)};BYMINUTE=${until(60)};BYSECOND=${until(60)}`)).to.equal(
        'schedule: RRULE BYSECOND takes one value, got 60: occurrences less than a minute apart are not a schedule to keep; use BYMINUTE',
      );
      expect(cronProblem(`RRULE:FREQ=YEARLY;${everyDay};BYHOUR=${until(18)};BYMINUTE=${until(18)};BYSECOND=${until(17)}`)).to.match(/^schedule: RRULE BYSECOND takes one value, got 17/);
      expect(cronProblem(`RRULE:FREQ=YEARLY;${everyDay};BYHOUR=${until(18)};BYMINUTE=${until(18)}`)).to.equal(
        `schedule: RRULE has up to 118584 occurrences a year (its days times BYHOUR, BYMINUTE and BYSECOND values); at most ${MAX_OCCURRENCES_PER_PERIOD}: use fewer values, a finer FREQ, or a cron expression for frequent times`,
      );
      expect(cronProblem(`RRULE:FREQ=DAILY;BYHOUR=${until(24)};BYMINUTE=${until(21)}`)).to.match(/^schedule: RRULE has up to 504 occurrences a day /);
      expect(cronProblem(`RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=${until(24)};BYMINUTE=0,10,20,30,40;BYSECOND=0`)).to.match(/^schedule: RRULE has up to 600 occurrences a week /);
      expect(cronProblem(`RRULE:FREQ=MONTHLY;BYMONTHDAY=${until(31, 1)};BYHOUR=${until(17)}`)).to.match(/^schedule: RRULE has up to 527 occurrences a month /);
      expect(cronProblem('RRULE:FREQ=DAILY;COUNT=1001')).to.equal(`schedule: RRULE COUNT must be at most ${MAX_COUNT}, got 1001`);
    });

    it('accepts a rule at MAX_OCCURRENCES_PER_PERIOD, and one whose BYSETPOS picks fewer from a larger set', () => {
      const until = (n: number, from = 0) => Array.from({ length: n }, (_, i) => i + from).join(',');
      expect(MAX_OCCURRENCES_PER_PERIOD).to.equal(500);
      for (const rule of [
        `RRULE:FREQ=DAILY;BYHOUR=${until(10)};BYMINUTE=${until(50)}`,
        `RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=${until(20)};BYMINUTE=0,15,30,45;BYSECOND=30`,
        `RRULE:FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=${until(31, 1)};BYHOUR=${until(16)}`,
        `RRULE:FREQ=YEARLY;BYDAY=MO,TU,WE,TH,FR,SA,SU;BYHOUR=${until(24)};BYSETPOS=1,-1`,
        'RRULE:FREQ=DAILY;COUNT=1000',
      ]) {
        expect(cronProblem(rule, '2020-01-02T12:00:00.000Z'), rule).to.equal(null);
      }
    });

    it('accepts every part at the ends of its range', () => {
      for (const rule of [
        'RRULE:FREQ=DAILY;BYHOUR=0,23;BYMINUTE=0,59;BYSECOND=0',
        'RRULE:FREQ=DAILY;BYSECOND=59',
        'RRULE:FREQ=DAILY;BYHOUR=23',
        'RRULE:FREQ=YEARLY;BYMONTH=1,12;BYMONTHDAY=1,31,-1,-31',
        'RRULE:FREQ=YEARLY;BYYEARDAY=1,366,-1,-366',
        'RRULE:FREQ=YEARLY;BYWEEKNO=1,53,-1,-53;WKST=SU',
        'RRULE:FREQ=YEARLY;BYDAY=53FR,-53MO,20TU',
        'RRULE:FREQ=MONTHLY;BYDAY=MO,TU;BYSETPOS=1,-1,366,-366;INTERVAL=1',
        'RRULE:FREQ=MONTHLY;BYDAY=-1FR',
      ]) {
        expect(cronProblem(rule), rule).to.equal(null);
      }
    });
  });

  it('reads a rule already kept with a part out of range as it always has, and one with INTERVAL below 1 as having no next time', () => {
    expect(next('RRULE:FREQ=DAILY;BYHOUR=99', 'UTC', NOW)).to.match(/T03:00:00.000Z$/);
    // rrule walks back from the anchor forever for -1, and reads 0 as never.
    expect(next('RRULE:FREQ=DAILY;INTERVAL=-1', 'UTC', NOW)).to.equal(null);
    expect(next('RRULE:FREQ=DAILY;INTERVAL=0', 'UTC', NOW)).to.equal(null);
    expect(next('RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30', 'UTC', NOW)).to.equal(null);
  });

  describe('an RRULE kept before the limits on its occurrences', () => {
    const until = (n: number) => Array.from({ length: n }, (_, i) => i).join(',');
    const everyDay = 'BYDAY=MO,TU,WE,TH,FR,SA,SU';

    it('is walked through at most MAX_OCCURRENCES_WALKED occurrences a look-up: its next time is found near its anchor, and none past the bound', () => {
      // 324 a day, walked from January 1st: the 2,500 a look-up may walk (MAX_OCCURRENCES_WALKED) reach January 8th.
      const rule = `RRULE:FREQ=YEARLY;${everyDay};BYHOUR=${until(18)};BYMINUTE=${until(18)}`;
      expect(next(rule, 'UTC', '2027-01-03T12:00:00.000Z')).to.equal('2027-01-03T12:01:00.000Z');
      expect(next(rule, 'UTC', '2027-12-20T12:00:00.000Z')).to.equal(null);
    });

    it('is read as having no next time, at once, when its times of day alone are more than a look-up may walk', () => {
      // Issue 37's rules: 86,400 and 5,508 times a day.
      const everySecond = `RRULE:FREQ=YEARLY;${everyDay};BYHOUR=${until(24)};BYMINUTE=${until(60)};BYSECOND=${until(60)}`;
      const listed = `RRULE:FREQ=YEARLY;${everyDay};BYHOUR=${until(18)};BYMINUTE=${until(18)};BYSECOND=${until(17)}`;
      for (const [rule, timezone] of [[everySecond, 'UTC'], [listed, 'UTC'], [listed, 'America/New_York']] as const) {
        const started = performance.now();
        expect(nextExpectedAfterCheckIn('JOB_CRON', rule, timezone, '2027-01-03T12:00:00.000Z')).to.equal(null);
        expect(upcomingSlots('JOB_CRON', rule, timezone, '2027-01-03T12:00:00.000Z', 5)).to.deep.equal(['2027-01-03T12:00:00.000Z']);
        expect(performance.now() - started, timezone).to.be.below(1000);
      }
    });
  });

  describe('cron fields', () => {
    it('refuses a value out of its field\'s range, in the field\'s own terms', () => {
      expect(cronProblem('60 0 * * *')).to.equal('schedule: cron minute values must be 0 to 59, got 60');
      expect(cronProblem('0 24 * * *')).to.equal('schedule: cron hour values must be 0 to 23, got 24');
      expect(cronProblem('0 0 0 * *')).to.equal('schedule: cron day-of-month values must be 1 to 31, got 0');
      expect(cronProblem('0 0 1-32 * *')).to.equal('schedule: cron day-of-month values must be 1 to 31, got 32');
      expect(cronProblem('0 0 * 13 *')).to.equal('schedule: cron month values must be 1 to 12, got 13');
      expect(cronProblem('0 0 * * 8')).to.equal('schedule: cron day-of-week values must be 0 to 7, got 8');
      expect(cronProblem('*/0 * * * *')).to.equal('schedule: cron minute steps must be at least 1, got */0');
    });

    it('accepts the ends of each range, names, and croner\'s L, W and #', () => {
      for (const cron of ['0-59 0-23 1-31 1-12 0-7', '0 0 31 */2 *', '0 0 L * *', '0 0 15W * *', '0 0 * * 5#2', '0 0 * JAN-DEC MON-FRI', '0 0 31 2 1']) {
        expect(cronProblem(cron), cron).to.equal(null);
      }
    });
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
