import type { EscalationPolicyDocument } from '../../../projections/escalation-policies.js';
import type { EscalationStep } from '../../domain/escalation/steps.js';
import { duration } from '../format.js';
import { type Html, html } from '../html.js';
import { type SettingsFrame, settingsPage } from './settings.js';

export interface PolicyItem {
  policy: EscalationPolicyDocument;
  monitors: { id: string; name: string }[];
}

/** A step's targets by name: groups, channels, and on-call schedules (by count until they have pages). */
function targets(step: EscalationStep, names: ReadonlyMap<string, string>): string {
  const named = [...step.notification_group_ids.map((id) => `group ${names.get(id) ?? 'deleted'}`), ...step.notification_channel_ids.map((id) => names.get(id) ?? 'a deleted channel')];
  const onCall = step.on_call_schedule_ids.length;
  if (onCall > 0) named.push(`whoever is on call (${onCall} schedule${onCall === 1 ? '' : 's'})`);
  return named.join(', ');
}

/** `/projects/<id>/settings/escalation`: the project's escalation policies, their steps in words and the monitors that use them. */
export function escalationPoliciesPage(frame: SettingsFrame, items: readonly PolicyItem[], names: ReadonlyMap<string, string>, may: { canWrite: boolean; canDestroy: boolean }): Html {
  const base = `/projects/${frame.project.id}/settings/escalation`;
  const body = html`<section class="panel" aria-labelledby="policies"><h2 id="policies">Escalation policies</h2>
<p class="hint">A policy pages an incident step by step until someone acknowledges it; a monitor chooses one in its form.</p>
${may.canWrite ? html`<p><a class="button button-primary" href="${base}/new">New policy</a></p>` : html`<p class="hint">Creating and changing policies needs the MANAGER role and the manage_notifications scope.</p>`}
${items.length === 0
  ? html`<p class="muted">No escalation policy yet.</p>`
  : items.map(({ policy, monitors }) => html`<article class="policy" aria-labelledby="policy-${policy.id}"><h3 id="policy-${policy.id}">${policy.name}</h3>
<ol class="steps">${policy.steps.map((step) => html`<li>${step.delay_seconds === 0 ? 'At the start' : `${duration(step.delay_seconds * 1000)} after the start`}: ${targets(step, names)}${step.urgent ? ' (urgent)' : ''}</li>`)}</ol>
<p>${policy.repeat > 0 ? `Then again, ${policy.repeat} more time${policy.repeat === 1 ? '' : 's'}.` : 'Once through.'} Used by: ${monitors.length === 0 ? 'no monitor' : html`${monitors.map((m, i) => html`${i > 0 ? ', ' : ''}<a href="/monitors/${m.id}">${m.name}</a>`)}`}.</p>
${may.canWrite || may.canDestroy ? html`<div class="form-actions">${may.canWrite ? html`<a class="button button-secondary" href="${base}/${policy.id}/edit" aria-label="Edit ${policy.name}">Edit</a>` : null}${may.canDestroy ? html` <a class="button button-warning" href="${base}/${policy.id}/delete" aria-label="Delete ${policy.name}">Delete…</a>` : null}</div>` : null}
</article>`)}
</section>`;
  return settingsPage(frame, 'escalation', 'Escalation policies', body);
}
