import type { OnCallScheduleDocument } from '../../../projections/on-call-schedules.js';
import type { OnCallShift } from '../../domain/on-call/rotation.js';
import { inZone } from '../format.js';
import { type Html, html } from '../html.js';
import { csrfField } from '../layout.js';
import { type ScheduleFormValues, NEW_OVERRIDE_ROWS } from '../on-call-form.js';
import { type SettingsFrame, settingsPage } from './settings.js';

export interface Person {
  id: string;
  name: string;
  email: string;
}

const base = (v: SettingsFrame) => `/projects/${v.project.id}/settings/on-call`;
const turnWords = (days: number) => (days === 1 ? 'Daily' : days === 7 ? 'Weekly' : `Every ${days} days`);
const nameOf = (people: ReadonlyMap<string, Person>, id: string) => people.get(id)?.name ?? 'a former member';

function shiftWords(shift: OnCallShift | undefined, people: ReadonlyMap<string, Person>, zone: string): Html {
  if (!shift) return html`<span class="muted">nobody</span>`;
  return html`<strong>${nameOf(people, shift.user_id)}</strong>${shift.override ? html` <span class="tag">override</span>` : null}<span class="monitor-slug">${inZone(shift.from, zone)} → ${inZone(shift.until, zone)}</span>`;
}

export interface ScheduleRow {
  schedule: OnCallScheduleDocument;
  shifts: OnCallShift[];
}

export function schedulesPage(v: SettingsFrame & { rows: ScheduleRow[]; people: ReadonlyMap<string, Person>; canWrite: boolean }): Html {
  const list = v.rows.length === 0
    ? html`<p class="empty">No on-call schedules yet.${v.canWrite ? ' Create one: who takes the pager, in turn, and when they hand it on.' : ''}</p>`
    : html`<table class="stack-table"><caption class="visually-hidden">On-call schedules of ${v.project.name}</caption>
<thead><tr><th scope="col">Schedule</th><th scope="col">On call now</th><th scope="col">Next</th></tr></thead>
<tbody>${v.rows.map(({ schedule: s, shifts }) => html`<tr>
<td data-label="Schedule"><a href="${base(v)}/${s.id}"><strong>${s.name}</strong></a><span class="monitor-slug">${turnWords(s.rotation_days)}, hand-off ${s.handoff_time} ${s.time_zone}</span></td>
<td data-label="On call now">${shiftWords(shifts[0], v.people, s.time_zone)}</td>
<td data-label="Next">${shiftWords(shifts[1], v.people, s.time_zone)}</td>
</tr>`)}</tbody></table>`;
  return settingsPage(v, 'on-call', 'On call', html`<section class="panel" aria-labelledby="on-call-title"><h2 id="on-call-title">On-call schedules</h2>
<p class="hint">Rotations of project members. An escalation step that pages a schedule reaches whoever is on call then, through the channels they keep as their own.</p>
${list}
${v.canWrite ? html`<p><a class="button button-primary" href="${base(v)}/new">New schedule</a></p>` : html`<p class="hint">Creating and changing schedules needs the MANAGER role and the manage_notifications scope.</p>`}
</section>`);
}

export function schedulePage(v: SettingsFrame & { schedule: OnCallScheduleDocument; shifts: OnCallShift[]; people: ReadonlyMap<string, Person>; ownChannels: ReadonlyMap<string, number>; canWrite: boolean; canDestroy: boolean }): Html {
  const s = v.schedule;
  const [now, ...later] = v.shifts;
  return settingsPage(v, 'on-call', s.name, html`<section class="panel" aria-labelledby="schedule-title"><h2 id="schedule-title">${s.name}</h2>
<p class="hint">${turnWords(s.rotation_days)} turns from ${s.starts_on}, handed on at ${s.handoff_time} in ${s.time_zone} (clock changes are followed).</p>
<dl class="on-call-now"><div><dt>On call now</dt><dd>${shiftWords(now, v.people, s.time_zone)}</dd></div>
${later.map((shift, i) => html`<div><dt>${i === 0 ? 'Next' : 'Then'}</dt><dd>${shiftWords(shift, v.people, s.time_zone)}</dd></div>`)}</dl>
<h3>Rotation</h3>
${s.participants.length === 0 ? html`<p class="muted">Nobody is in the rotation.</p>` : html`<ol class="rotation">${s.participants.map((id) => html`<li>${nameOf(v.people, id)} <span class="muted">${(v.ownChannels.get(id) ?? 0) === 0 ? '— no channel of their own: a page reaches nobody' : `— ${v.ownChannels.get(id)} own channel${v.ownChannels.get(id) === 1 ? '' : 's'}`}</span></li>`)}</ol>`}
<h3>Overrides</h3>
${s.overrides.length === 0 ? html`<p class="muted">None.</p>` : html`<ul>${s.overrides.map((o) => html`<li>${nameOf(v.people, o.user_id)}: ${inZone(o.from, s.time_zone)} → ${inZone(o.until, s.time_zone)}</li>`)}</ul>`}
<div class="form-actions">${v.canWrite ? html`<a class="button button-secondary" href="${base(v)}/${s.id}/edit">Edit schedule</a>` : null}${v.canDestroy ? html` <a class="button button-warning" href="${base(v)}/${s.id}/delete">Delete…</a>` : null} <a href="${base(v)}">All schedules</a></div>
</section>`);
}

export function scheduleFormPage(v: SettingsFrame & { schedule: OnCallScheduleDocument | null; values: ScheduleFormValues; members: Person[]; error: { field: string | null; message: string } | null }): Html {
  const { values, error, schedule } = v;
  const title = schedule ? `Edit ${schedule.name}` : 'New on-call schedule';
  const action = schedule ? `${base(v)}/${schedule.id}` : base(v);
  const wrong = (field: string) => (error?.field === field ? html` aria-invalid="true"` : null);
  const cls = (field: string) => `field${error?.field === field ? ' field-error' : ''}`;
  const order = new Map(values.participants.map((id, i) => [id, i + 1]));
  const rows = [...values.overrides, ...Array.from({ length: NEW_OVERRIDE_ROWS }, () => ({ user_id: '', from: '', until: '' }))];
  const input = (id: string, name: string, label: string, hint: string, value: string, type = 'text', extra: Html | null = null) => html`<div class="${cls(id)}"><label for="${id}">${label}</label><p class="hint" id="${id}-hint">${hint}</p>
<input type="${type}" id="${id}" name="${name}" value="${value}" aria-describedby="${id}-hint"${wrong(id)}${extra}></div>`;
  return settingsPage({ ...v, notice: null }, 'on-call', title, html`${error ? html`<div class="error-summary" role="alert" aria-labelledby="error-summary-title"><h2 id="error-summary-title">There is a problem</h2>
<ul><li>${error.field ? html`<a href="#${error.field}">${error.message}</a>` : error.message}</li></ul></div>` : null}
<section class="panel narrow-panel" aria-labelledby="schedule-form-title"><h2 id="schedule-form-title">${title}</h2>
<form method="post" action="${action}" class="schedule-form" novalidate>${csrfField(v.viewer)}
${input('schedule-name', 'name', 'Name', 'How escalation steps and the console name it, e.g. “Database on call”.', values.name, 'text', html` maxlength="100" required`)}
${input('schedule-time-zone', 'time_zone', 'Time zone', 'The zone the hand-off time is kept in: an IANA name such as Europe/Berlin.', values.time_zone, 'text', html` autocomplete="off" spellcheck="false"`)}
${input('schedule-handoff-time', 'handoff_time', 'Hand-off time', 'When one turn ends and the next begins, on the clock of that zone.', values.handoff_time, 'time')}
${input('schedule-rotation', 'rotation_days', 'Each turn lasts (days)', '1 is daily, 7 weekly; up to 90.', values.rotation_days, 'number', html` min="1" max="90" inputmode="numeric"`)}
${input('schedule-starts-on', 'starts_on', 'First turn starts on', 'The first person on the list takes the first turn at the hand-off time that day.', values.starts_on, 'date')}
<fieldset class="${cls('schedule-participants')}" id="schedule-participants" tabindex="-1"><legend>Rotation</legend><p class="hint">Tick who takes turns; the numbers set the order (1 goes first).</p>
${v.members.length === 0 ? html`<p class="muted">The project has no members.</p>` : html`<ul class="rotation-choices">${v.members.map((m) => html`<li><input type="checkbox" id="participant-${m.id}" name="participant" value="${m.id}"${order.has(m.id) ? html` checked` : null}><label for="participant-${m.id}">${m.name} <span class="muted">${m.email}</span></label>
<label class="visually-hidden" for="order-${m.id}">Order of ${m.name}</label><input type="number" class="order-input" id="order-${m.id}" name="order_${m.id}" min="1" max="50" inputmode="numeric" value="${order.has(m.id) ? String(order.get(m.id)) : ''}"></li>`)}</ul>`}
</fieldset>
<fieldset class="${cls('schedule-overrides')}" id="schedule-overrides" tabindex="-1"><legend>Overrides</legend><p class="hint">Someone standing in, from and until a time in the schedule's zone. Choose nobody to remove a row.</p>
${rows.map((o, i) => html`<div class="override-row"><div><label for="override-user-${i}">Who</label><select id="override-user-${i}" name="override_user"><option value="">Nobody</option>${v.members.map((m) => html`<option value="${m.id}"${m.id === o.user_id ? html` selected` : null}>${m.name}</option>`)}</select></div>
<div><label for="override-from-${i}">From</label><input type="datetime-local" id="override-from-${i}" name="override_from" value="${o.from}"></div>
<div><label for="override-until-${i}">Until</label><input type="datetime-local" id="override-until-${i}" name="override_until" value="${o.until}"></div></div>`)}
</fieldset>
<div class="form-actions"><button type="submit" class="button button-primary">${schedule ? 'Save changes' : 'Create schedule'}</button> <a href="${schedule ? `${base(v)}/${schedule.id}` : base(v)}">Cancel</a></div>
</form></section>`);
}

export function deleteSchedulePage(v: SettingsFrame & { schedule: OnCallScheduleDocument; pagedBy: { id: string; name: string }[] }): Html {
  // A schedule that a policy pages is not deleted from here: its steps would page nobody without a word.
  const body = v.pagedBy.length > 0
    ? html`<p>It cannot be deleted while these escalation policies page whoever is on call on it. Take it out of their steps first:</p>
<ul>${v.pagedBy.map((policy) => html`<li><a href="/projects/${v.project.id}/settings/escalation#policy-${policy.id}">${policy.name}</a></li>`)}</ul>
<p><a href="${base(v)}/${v.schedule.id}">Back to the schedule</a></p>`
    : html`<p>Its rotation and overrides are lost. This cannot be undone.</p>
<form method="post" action="${base(v)}/${v.schedule.id}/delete" class="form-actions">${csrfField(v.viewer)}<button type="submit" class="button button-warning">Delete the schedule</button> <a href="${base(v)}/${v.schedule.id}">Cancel</a></form>`;
  return settingsPage(v, 'on-call', `Delete ${v.schedule.name}`, html`<section class="panel narrow-panel" aria-labelledby="delete-title"><h2 id="delete-title">Delete the schedule ${v.schedule.name}?</h2>
${body}
</section>`);
}
