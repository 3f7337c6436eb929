import { type ImportPlan, ImportFileError, type MonitorDraft, SlugAllocator, graceOf, intervalOf, isObject, numberAt, stringAt, tagsOf, textOf } from './import-plan.js';

const CRON_FIELDS = 5;

/** A systemd OnCalendar expression, as Healthchecks also accepts: `Mon..Fri *-*-* 09:00`, `daily`. */
const looksLikeOnCalendar = (schedule: string) => /\d:\d|\*-\*|\.\./.test(schedule) || /^[a-z]+$/i.test(schedule.trim());

/**
 * The checks of Healthchecks' `GET /api/v3/checks/` answer (`{"checks": [...]}`, or the bare list)
 * as Vigil monitors: a simple check (`timeout` + `grace`) becomes JOB_HEARTBEAT on that period, a
 * cron check (`schedule` + `tz` + `grace`) JOB_CRON in that zone. The slug is the check's own
 * (API v3), or one made from its name.
 */
export function planHealthchecks(file: unknown): ImportPlan {
  const checks = Array.isArray(file) ? file : isObject(file) && Array.isArray(file['checks']) ? file['checks'] : null;
  if (checks === null) throw new ImportFileError('this is not the answer of Healthchecks’ GET /api/v3/checks/: it has no "checks" list');
  const plan: ImportPlan = { drafts: [], unmapped: [] };
  const slugs = new SlugAllocator();
  checks.forEach((check: unknown, index) => {
    if (!isObject(check)) {
      plan.unmapped.push({ source: `checks[${index}]`, reason: 'not a check object' });
      return;
    }
    const name = (stringAt(check, 'name') ?? '').trim();
    const ownSlug = (stringAt(check, 'slug') ?? '').trim();
    const source = name || ownSlug || `checks[${index}]`;
    if (name === '' && ownSlug === '') {
      plan.unmapped.push({ source, reason: 'the check has neither a name nor a slug' });
      return;
    }
    const notes: string[] = [];
    const schedule = (stringAt(check, 'schedule') ?? '').trim();
    const timeout = numberAt(check, 'timeout');
    const grace = numberAt(check, 'grace') ?? 3600;
    let timing: Pick<MonitorDraft['body'], 'type' | 'schedule'> & { timezone?: string };
    if (schedule !== '') {
      if (schedule.toLowerCase() === '@reboot') {
        plan.unmapped.push({ source, reason: 'schedule @reboot runs once at boot: there is no time at which a ping is due (a JOB_BASIC monitor pinged by the job may suit)' });
        return;
      }
      if (stringAt(check, 'kind') === 'oncalendar' || (!schedule.startsWith('@') && schedule.split(/\s+/).length !== CRON_FIELDS && looksLikeOnCalendar(schedule))) {
        plan.unmapped.push({ source, reason: `schedule "${schedule}" is a systemd OnCalendar expression: write it as a cron expression or an RRULE` });
        return;
      }
      timing = { type: 'JOB_CRON', schedule, timezone: stringAt(check, 'tz') || 'UTC' };
    } else if (timeout !== null) {
      const interval = intervalOf(timeout);
      if (interval === null) {
        plan.unmapped.push({ source, reason: `period ${timeout}s is outside Vigil's 1s to 365d` });
        return;
      }
      timing = { type: 'JOB_HEARTBEAT', schedule: interval };
    } else {
      plan.unmapped.push({ source, reason: 'the check has neither a timeout nor a schedule' });
      return;
    }
    const uuid = checkUuid(check);
    const slug = slugs.allocate(ownSlug || name);
    if (ownSlug !== '' && slug !== ownSlug) notes.push(`slug ${ownSlug} became ${slug}`);
    const tags = tagsOf((stringAt(check, 'tags') ?? '').split(/\s+/), notes);
    if ((stringAt(check, 'methods') ?? '') === 'POST') notes.push('methods=POST not kept: Vigil takes pings by GET, HEAD and POST');
    if (['success_kw', 'failure_kw', 'start_kw'].some((key) => (stringAt(check, key) ?? '') !== '')) notes.push('email keywords (start_kw, success_kw, failure_kw) not kept');
    if (typeof check['channels'] === 'string' && check['channels'] !== '') notes.push('integrations not imported: attach Vigil notification channels');
    plan.drafts.push({
      source,
      slug,
      body: {
        name: textOf(name || ownSlug, 100, 'name', notes),
        slug,
        ...timing,
        grace_period_seconds: graceOf(grace, notes),
        description: textOf(stringAt(check, 'desc') ?? '', 500, 'description', notes),
        tags,
      },
      paused: stringAt(check, 'status') === 'paused',
      notes,
      ...(uuid === null ? {} : { peerAlias: { peer: 'healthchecks' as const, alias: uuid } }),
    });
  });
  return plan;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The check's UUID: its `uuid`, or the last segment of its `ping_url` (`https://hc-ping.com/<uuid>`). */
function checkUuid(check: Record<string, unknown>): string | null {
  const given = stringAt(check, 'uuid') ?? (stringAt(check, 'ping_url') ?? '').split('/').pop() ?? '';
  return UUID.test(given) ? given.toLowerCase() : null;
}
