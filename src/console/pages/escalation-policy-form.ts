import type { EscalationPolicyDocument } from '../../../projections/escalation-policies.js';
import { MAX_REPEAT, MAX_STEPS } from '../../domain/escalation/steps.js';
import { NEW_STEP_ROWS, type PolicyFormValues, type StepRow } from '../escalation-form.js';
import { type Html, html } from '../html.js';
import { csrfField } from '../layout.js';
import { type SettingsFrame, settingsPage } from './settings.js';

/** What a step may page, by name: the project's groups, channels and on-call schedules. */
export interface StepTargets {
  groups: { id: string; name: string }[];
  channels: { id: string; name: string }[];
  schedules: { id: string; name: string }[];
}

type FormError = { field: string | null; message: string } | null;

const base = (v: SettingsFrame) => `/projects/${v.project.id}/settings/escalation`;
const EMPTY_ROW: StepRow = { delay_minutes: '', group_ids: [], channel_ids: [], schedule_ids: [], urgent: false };

function choices(row: number, kind: 'group' | 'channel' | 'schedule', legend: string, items: { id: string; name: string }[], ticked: readonly string[]): Html {
  if (items.length === 0) return html``;
  return html`<fieldset class="step-targets"><legend>${legend}</legend><ul class="rotation-choices">${items.map((item) => html`<li><input type="checkbox" id="step-${row}-${kind}-${item.id}" name="step${row}_${kind}" value="${item.id}"${ticked.includes(item.id) ? html` checked` : null}><label for="step-${row}-${kind}-${item.id}">${item.name}</label></li>`)}</ul></fieldset>`;
}

function stepRow(row: number, values: StepRow, targets: StepTargets, error: FormError): Html {
  const rowError = error?.field === `step-${row}` || error?.field === `step-${row}-delay`;
  return html`<fieldset class="policy-step${rowError ? ' field-error' : ''}" id="step-${row}" tabindex="-1"><legend>Step ${row + 1}</legend>
<div class="field${error?.field === `step-${row}-delay` ? ' field-error' : ''}"><label for="step-${row}-delay">Delay (minutes after the incident starts)</label>
<input type="number" id="step-${row}-delay" name="step${row}_delay_minutes" min="0" max="1440" step="any" inputmode="decimal" value="${values.delay_minutes}"${error?.field === `step-${row}-delay` ? html` aria-invalid="true"` : null}></div>
${choices(row, 'group', 'Notification groups', targets.groups, values.group_ids)}
${choices(row, 'channel', 'Channels', targets.channels, values.channel_ids)}
${choices(row, 'schedule', 'Whoever is on call on', targets.schedules, values.schedule_ids)}
<div class="field checkbox-field"><input type="checkbox" id="step-${row}-urgent" name="step${row}_urgent" value="1"${values.urgent ? html` checked` : null}><label for="step-${row}-urgent">Urgent: go out even in a channel's quiet hours</label></div>
</fieldset>`;
}

/** Create or edit a policy: its name, up to ten steps (the stored ones and empty rows to add), and how often to repeat. */
export function policyFormPage(v: SettingsFrame & { policy: EscalationPolicyDocument | null; values: PolicyFormValues; targets: StepTargets; error: FormError }): Html {
  const { values, error, policy } = v;
  const title = policy ? `Edit ${policy.name}` : 'New escalation policy';
  const rows = [...values.steps];
  while (rows.length < Math.min(MAX_STEPS, values.steps.length + NEW_STEP_ROWS) || rows.length === 0) rows.push(EMPTY_ROW);
  const noTargets = v.targets.groups.length + v.targets.channels.length + v.targets.schedules.length === 0;
  return settingsPage({ ...v, notice: null }, 'escalation', title, html`${error ? html`<div class="error-summary" role="alert" aria-labelledby="error-summary-title"><h2 id="error-summary-title">There is a problem</h2>
<ul><li>${error.field ? html`<a href="#${error.field}">${error.message}</a>` : error.message}</li></ul></div>` : null}
<section class="panel narrow-panel" aria-labelledby="policy-form-title"><h2 id="policy-form-title">${title}</h2>
${noTargets ? html`<p class="hint">This project has no channel, group or on-call schedule yet: <a href="/projects/${v.project.id}/settings/channels">add a channel</a> first.</p>` : null}
<form method="post" action="${policy ? `${base(v)}/${policy.id}` : base(v)}" class="policy-form" novalidate>${csrfField(v.viewer)}
<div class="field${error?.field === 'policy-name' ? ' field-error' : ''}"><label for="policy-name">Name</label><p class="hint" id="policy-name-hint">How monitors and incident pages name it, e.g. “Database”.</p>
<input type="text" id="policy-name" name="name" value="${values.name}" maxlength="100" required aria-describedby="policy-name-hint"${error?.field === 'policy-name' ? html` aria-invalid="true"` : null}></div>
<p class="hint">Each step pages its targets that many minutes after the incident starts, in order, until someone acknowledges or it resolves. Leave a step empty to drop it.</p>
${rows.map((row, i) => stepRow(i, row, v.targets, error))}
<div class="field${error?.field === 'policy-repeat' ? ' field-error' : ''}"><label for="policy-repeat">Repeat</label><p class="hint" id="policy-repeat-hint">How many more times to run the steps after the last one, 0 to ${MAX_REPEAT}.</p>
<input type="number" id="policy-repeat" name="repeat" min="0" max="${MAX_REPEAT}" inputmode="numeric" value="${values.repeat}" aria-describedby="policy-repeat-hint"${error?.field === 'policy-repeat' ? html` aria-invalid="true"` : null}></div>
<div class="form-actions"><button type="submit" class="button button-primary">${policy ? 'Save changes' : 'Create policy'}</button> <a href="${base(v)}">Cancel</a></div>
</form></section>`);
}

/**
 * Deleting a policy: what is lost, and, while monitors use it, the explicit choice to take it off
 * them (they then page as monitors without a policy do).
 */
export function deletePolicyPage(v: SettingsFrame & { policy: EscalationPolicyDocument; monitors: { id: string; name: string }[] }): Html {
  const used = v.monitors.length > 0;
  return settingsPage(v, 'escalation', `Delete ${v.policy.name}`, html`<section class="panel narrow-panel" aria-labelledby="delete-title"><h2 id="delete-title">Delete the escalation policy ${v.policy.name}?</h2>
${used
  ? html`<p>These monitors use it. Deleting it takes it off them: their incidents then page their own groups and channels, repeating on the server's interval. Escalations already under way finish their steps.</p>
<ul>${v.monitors.map((m) => html`<li><a href="/monitors/${m.id}">${m.name}</a></li>`)}</ul>`
  : html`<p>No monitor uses it. Escalations already under way finish their steps.</p>`}
<p>This cannot be undone.</p>
<form method="post" action="${base(v)}/${v.policy.id}/delete" class="form-actions">${csrfField(v.viewer)}${used ? html`<input type="hidden" name="clear_monitors" value="true">` : null}<button type="submit" class="button button-warning">${used ? `Take it off ${v.monitors.length} monitor${v.monitors.length === 1 ? '' : 's'} and delete it` : 'Delete the policy'}</button> <a href="${base(v)}">Cancel</a></form>
</section>`);
}
