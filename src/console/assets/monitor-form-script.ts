/**
 * The monitor form's script, served as /console/assets/monitor-form.<hash>.js on the new and edit
 * pages only. Without it the form shows every type's fields under their headings and the preview
 * as the page was rendered; with it, only the chosen type's fields, and the preview follows the
 * schedule as it is typed. The preview arrives as HTML the server rendered (and escaped) with the
 * same function as the page's: the script builds no markup from data.
 */
export const MONITOR_FORM_JS = `
const form = document.querySelector('form[data-monitor-form]');
if (form) {
  const typeInputs = [...form.querySelectorAll('input[name="type"]')];
  const chosenType = () => {
    const checked = typeInputs.find((input) => input.type === 'hidden' || input.checked);
    return checked ? checked.value : '';
  };
  const parts = [...form.querySelectorAll('[data-types]')];
  const preview = document.getElementById('schedule-preview');

  const showChosen = () => {
    const type = chosenType();
    for (const part of parts) part.hidden = type !== '' && !part.dataset.types.split(' ').includes(type);
  };

  const scheduleInputs = { JOB_CRON: 'cron_schedule', JOB_HEARTBEAT: 'heartbeat_every', UPTIME_HTTP: 'check_every', UPTIME_TCP: 'check_every', UPTIME_DNS: 'check_every' };
  let pending = null;
  let asked = 0;
  const refreshPreview = async () => {
    if (!preview) return;
    const type = chosenType();
    const field = form.elements.namedItem(scheduleInputs[type] || '');
    const query = new URLSearchParams({ type, schedule: field ? field.value : '', timezone: form.elements.namedItem('timezone').value });
    const ask = ++asked;
    try {
      const response = await fetch(preview.dataset.previewUrl + '?' + query, { headers: { Accept: 'text/html' }, credentials: 'same-origin' });
      // A later keystroke's answer may come first: only the newest is shown. Redirected is to sign in: not a preview.
      if (ask !== asked || !response.ok || response.redirected || !(response.headers.get('Content-Type') || '').startsWith('text/html')) return;
      const template = document.createElement('template');
      template.innerHTML = await response.text();
      preview.replaceChildren(template.content);
    } catch {
      // Offline or signed out: the preview keeps what it showed, the form still submits.
    }
  };
  const soon = () => {
    clearTimeout(pending);
    pending = setTimeout(refreshPreview, 250);
  };

  for (const input of typeInputs) input.addEventListener('change', () => { showChosen(); soon(); });
  for (const name of ['cron_schedule', 'heartbeat_every', 'check_every', 'timezone']) {
    const input = form.elements.namedItem(name);
    if (input) input.addEventListener('input', soon);
  }
  showChosen();
  // A refused form: focus goes to what is wrong, as the page's first words (its links lead to the fields).
  const summary = document.querySelector('.error-summary');
  if (summary) {
    summary.tabIndex = -1;
    summary.focus();
  }
}
`;
