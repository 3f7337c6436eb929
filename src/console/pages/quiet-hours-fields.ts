import type { QuietHours } from '../../domain/notifications/quiet-hours.js';
import { type Html, html } from '../html.js';
import { DAY_NAMES } from '../quiet-hours-form.js';

/** The channel form's quiet hours: on or off, the days, from and until, and the zone they are read in. */
export function quietHoursFields(values: Record<string, string>, errorField: string | null): Html {
  const on = (values['quiet_enabled'] ?? '') !== '';
  const days = new Set((values['quiet_days'] ?? (on ? '' : '0,1,2,3,4,5,6')).split(',').filter((d) => d !== ''));
  const invalid = (id: string) => (errorField === id ? html` aria-invalid="true"` : null);
  const wrong = (id: string) => (errorField === id ? ' field-error' : '');
  return html`<fieldset class="field quiet-hours" aria-describedby="quiet-hours-hint"><legend>Quiet hours</legend>
<p class="hint" id="quiet-hours-hint">While they hold, pages to this channel wait and go out when they end (recorded as held on the incident). Urgent escalation steps still go out. A window whose end is before its start runs past midnight; the days are the days it starts on.</p>
<div class="checkbox"><input type="checkbox" id="quiet-hours-on" name="quiet_enabled" value="true"${on ? html` checked` : null}${invalid('quiet-hours-on')}><label for="quiet-hours-on">Hold pages during quiet hours</label></div>
<fieldset class="quiet-days${wrong('quiet-hours-days')}"><legend>On</legend><ul class="check-list day-list">${DAY_NAMES.map((name, day) => html`<li><input type="checkbox" id="${day === 0 ? 'quiet-hours-days' : `quiet-hours-day-${day}`}" name="quiet_day" value="${String(day)}"${days.has(String(day)) ? html` checked` : null}${day === 0 ? invalid('quiet-hours-days') : null}><label for="${day === 0 ? 'quiet-hours-days' : `quiet-hours-day-${day}`}">${name}</label></li>`)}</ul></fieldset>
<div class="time-row">
<div class="${wrong('quiet-hours-start')}"><label for="quiet-hours-start">From</label><input type="time" id="quiet-hours-start" name="quiet_start" value="${values['quiet_start'] ?? '22:00'}"${invalid('quiet-hours-start')}></div>
<div class="${wrong('quiet-hours-end')}"><label for="quiet-hours-end">Until</label><input type="time" id="quiet-hours-end" name="quiet_end" value="${values['quiet_end'] ?? '07:00'}"${invalid('quiet-hours-end')}></div>
<div class="${wrong('quiet-hours-time-zone')}"><label for="quiet-hours-time-zone">Time zone</label><input type="text" id="quiet-hours-time-zone" name="quiet_time_zone" value="${values['quiet_time_zone'] ?? 'UTC'}" autocomplete="off" spellcheck="false" aria-describedby="quiet-hours-zone-hint"${invalid('quiet-hours-time-zone')}></div>
</div>
<p class="hint" id="quiet-hours-zone-hint">An IANA zone such as Europe/Berlin or America/New_York; clock changes are followed.</p>
</fieldset>`;
}

/** "Quiet 22:00–07:00 (Europe/Berlin), every day": how the channel list tells them. */
export function quietHoursSummary(quiet: QuietHours | null): string | null {
  if (!quiet) return null;
  const days = quiet.days.length === 7 ? 'every day' : quiet.days.map((d) => DAY_NAMES[d]?.slice(0, 3) ?? '?').join(', ');
  return `Quiet ${quiet.start}–${quiet.end} (${quiet.time_zone}), ${days}`;
}
