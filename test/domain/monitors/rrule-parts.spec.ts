import { expect } from 'chai';
import fc from 'fast-check';
import rrule from 'rrule';
import { MAX_OCCURRENCES_PER_PERIOD, occurrencesPerPeriod, ruleParts, ruleProblem } from '../../../src/domain/monitors/rrule-parts.js';
import { nextExpectedAfter, nextExpectedAfterCheckIn, scheduleProblem, upcomingSlots } from '../../../src/domain/monitors/schedule.js';

const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
/** A BY… list: left out, a few values (as people write them) or up to all of them. */
const values = (min: number, max: number) =>
  fc.option(
    fc.oneof(fc.uniqueArray(fc.integer({ min, max }), { minLength: 1, maxLength: 3 }), fc.uniqueArray(fc.integer({ min, max }), { minLength: 1, maxLength: max - min + 1 })),
    { nil: undefined },
  );

/** RRULEs of every shape a monitor or a window may be given, many with long BY… lists. */
const rules: fc.Arbitrary<string> = fc
  .record({
    FREQ: fc.constantFrom('YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY'),
    INTERVAL: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
    COUNT: fc.option(fc.integer({ min: 1, max: 1500 }), { nil: undefined, freq: 4 }),
    BYMONTH: values(1, 12),
    BYMONTHDAY: values(1, 31),
    BYDAY: fc.option(fc.subarray(WEEKDAYS, { minLength: 1 }), { nil: undefined }),
    BYHOUR: values(0, 23),
    BYMINUTE: values(0, 59),
    BYSECOND: fc.option(fc.oneof(fc.constant([0]), fc.uniqueArray(fc.integer({ min: 0, max: 59 }), { minLength: 1, maxLength: 60 })), { nil: undefined }),
    BYSETPOS: fc.option(fc.uniqueArray(fc.integer({ min: -3, max: 3 }).filter((n) => n !== 0), { minLength: 1, maxLength: 2 }), { nil: undefined }),
  })
  .map((parts) => `RRULE:${Object.entries(parts).filter(([, value]) => value !== undefined).map(([name, value]) => `${name}=${Array.isArray(value) ? value.join(',') : value}`).join(';')}`);

const ZONES = ['UTC', 'Europe/Paris', 'America/New_York', 'Australia/Lord_Howe'];

describe('RRULE limits', function () {
  this.timeout(300_000);

  it('accepts only rules with at most MAX_OCCURRENCES_PER_PERIOD occurrences a period, and refuses the others naming the schedule and why', () => {
    fc.assert(
      fc.property(rules, (rule) => {
        const problem = ruleProblem(rule);
        if (occurrencesPerPeriod(ruleParts(rule)) > MAX_OCCURRENCES_PER_PERIOD) expect(problem).to.match(/^schedule: RRULE /);
        if (problem === null) expect(occurrencesPerPeriod(ruleParts(rule))).to.be.at.most(MAX_OCCURRENCES_PER_PERIOD);
      }),
      { numRuns: 2000 },
    );
  });

  it('evaluates every rule it accepts as rrule does, walked from 2020 without a bound', () => {
    let accepted = 0;
    fc.assert(
      fc.property(rules, fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2020-06-30T00:00:00Z'), noInvalidDate: true }), (rule, from) => {
        const now = from.toISOString();
        if (scheduleProblem('JOB_CRON', rule, 'UTC', now) !== null) return;
        accepted += 1;
        const unbounded = rrule.rrulestr(`DTSTART:20200101T000000Z\n${rule}`).after(from, false);
        expect(nextExpectedAfter('JOB_CRON', rule, 'UTC', now), rule).to.equal(unbounded?.toISOString() ?? null);
      }),
      { numRuns: 300, endOnFailure: true },
    );
    expect(accepted, 'rules accepted').to.be.above(50);
  });

  it('answers any rule, accepted or kept from before the limits, within two seconds: a ping and a schedule page', () => {
    fc.assert(
      fc.property(rules, fc.constantFrom(...ZONES), fc.date({ min: new Date('2026-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true }), (rule, zone, from) => {
        const started = performance.now();
        const next = nextExpectedAfterCheckIn('JOB_CRON', rule, zone, from.toISOString());
        upcomingSlots('JOB_CRON', rule, zone, next, 5);
        expect(performance.now() - started, `${rule} in ${zone} from ${from.toISOString()}`).to.be.below(2000);
      }),
      { numRuns: 150, endOnFailure: true },
    );
  });
});
