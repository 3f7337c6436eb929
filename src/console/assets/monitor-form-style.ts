/** The monitor form's and its delete page's rules, appended to the console's stylesheet (see assets.ts). */
export const MONITOR_FORM_CSS = `
/* Monitor forms: new, edit, delete */
[data-types][hidden] { display: none !important; }
.monitor-form, main:has(.monitor-form) .error-summary { max-width: 760px; }
.monitor-form .form-section { background: var(--panel); border: 1px solid var(--line); border-radius: var(--radius); padding: 14px 20px 4px; margin: 0 0 20px; min-width: 0; }
.monitor-form .form-section > legend { font-size: 1.05rem; font-weight: 700; padding: 0 6px; margin-left: -6px; }
.monitor-form .field input[type=text], .monitor-form .field input[type=url], .monitor-form .field select { width: 100%; max-width: 32rem; }
.monitor-form .field input.input-number { width: 9rem; min-width: 0; }
.monitor-form textarea { max-width: 32rem; }
.monitor-form .field-error input, .monitor-form .field-error textarea, .monitor-form .field-error select { border: 2px solid var(--down); }
.monitor-form .field-error { border-left: 4px solid var(--down); padding-left: 12px; }
.monitor-form .tick-list { border: 0; padding: 0; margin: 0 0 16px; min-width: 0; }
.monitor-form .tick-list > legend { padding: 0; margin-bottom: 2px; font-weight: 600; font-size: 0.92rem; }
.monitor-form .tick-list ul, .type-choice ul { list-style: none; margin: 6px 0 0; padding: 0; }
.monitor-form .tick-list li { margin: 2px 0; }
.monitor-form .tick-list label { overflow-wrap: anywhere; }
.type-choice { background: var(--panel); border: 1px solid var(--line); border-radius: var(--radius); padding: 14px 20px; margin: 0 0 20px; min-width: 0; }
.type-choice > legend { font-size: 1.05rem; font-weight: 700; padding: 0 6px; margin-left: -6px; }
.type-choice ul { display: grid; grid-template-columns: repeat(auto-fit, minmax(220px, 1fr)); gap: 8px 16px; }
.type-choice li.radio { align-items: flex-start; border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; margin: 0; }
.type-choice li.radio:has(input:checked) { border-color: var(--brand); background: #eef2fb; }
.type-choice label { font-weight: 700; }
.checkbox-row { display: flex; gap: 10px; align-items: flex-start; margin: 0 0 14px; }
.checkbox-row input[type=checkbox] { margin-top: 3px; flex: none; }
.fixed-type { margin: 0 0 16px; }
.error-summary:focus { outline: 3px solid var(--focus); outline-offset: 0; }
.more-options { margin: 0 0 16px; }
.more-options > summary { cursor: pointer; color: var(--link); font-weight: 600; margin-bottom: 12px; }
.more-options[open] { border-left: 3px solid var(--line); padding-left: 12px; }
.monitor-form .hint code { overflow-wrap: anywhere; }
.schedule-preview { border-top: 1px dashed var(--line); padding: 10px 0 14px; }
.schedule-preview h3 { font-size: 0.95rem; margin: 0 0 4px; }
.preview-problem { color: var(--down); margin: 0; overflow-wrap: anywhere; }
.monitor-form .form-actions { margin: 4px 0 0; }
.delete-panel { max-width: 720px; }
.delete-panel ul.losses { margin: 8px 0 16px; padding-left: 20px; }
.delete-panel ul.losses li + li { margin-top: 4px; }
.delete-panel .form-actions { flex-wrap: wrap; }
.delete-panel .button-warning { background: var(--down); color: #fff; }
.delete-panel .button-warning:hover { background: #8f1c13; }
@media (max-width: 760px) {
  .monitor-form .form-section, .type-choice { padding: 12px 12px 4px; }
  .monitor-form textarea { max-width: none; }
}
`;
