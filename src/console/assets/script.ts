/**
 * The console's only script, served as /console/assets/console.<hash>.js and loaded as a module.
 * Every page works without it; it adds copy buttons and the dashboard's live rows. It never
 * builds markup from data: a live row arrives as HTML the server rendered (and escaped) with the
 * same function as the page's rows.
 */
export const CONSOLE_JS = `
const announcer = document.getElementById('live-announcer');

function announce(text) {
  if (announcer) announcer.textContent = text;
}

for (const button of document.querySelectorAll('button[data-copy]')) {
  button.hidden = false;
  button.addEventListener('click', async () => {
    const source = document.getElementById(button.dataset.copy);
    if (!source) return;
    const label = button.textContent;
    try {
      await navigator.clipboard.writeText(source.textContent.trim());
      button.textContent = 'Copied';
      announce('Copied to the clipboard');
    } catch {
      const range = document.createRange();
      range.selectNodeContents(source);
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      button.textContent = 'Press Ctrl+C';
    }
    setTimeout(() => { button.textContent = label; }, 2000);
  });
}

function rowFrom(markup) {
  const template = document.createElement('template');
  template.innerHTML = markup.trim();
  return template.content.firstElementChild;
}

const live = document.querySelector('[data-live-source]');
if (live && 'EventSource' in window) {
  const source = new EventSource(live.dataset.liveSource);
  source.addEventListener('monitor', (message) => {
    const update = JSON.parse(message.data);
    const current = live.querySelector('tr[data-monitor-id="' + CSS.escape(update.id) + '"]');
    if (!current) return;
    const before = current.dataset.status;
    const row = rowFrom(update.row);
    if (row) current.replaceWith(row);
    if (before !== update.status) announce(update.name + ' is now ' + update.status_text);
  });
  source.addEventListener('summary', (message) => {
    const counts = JSON.parse(message.data);
    for (const [status, count] of Object.entries(counts)) {
      const cell = document.querySelector('[data-count="' + CSS.escape(status) + '"]');
      if (cell) cell.textContent = String(count);
    }
  });
  // The rows stop following the log: the page says so rather than go on looking current.
  const stopped = (text) => {
    const notice = document.querySelector('[data-live-stopped]');
    if (notice) {
      notice.textContent = text;
      notice.hidden = false;
    }
    announce(text);
  };
  source.addEventListener('replaced', () => {
    // Closed for a newer tab of this session: reconnecting would close another tab in turn.
    source.close();
    stopped('Live updates stopped here because this browser opened them in newer tabs. Reload to see the latest.');
  });
  source.addEventListener('error', () => {
    // Refused (a 429: too many open in other browsers) rather than cut off: the browser will not try again.
    if (source.readyState === EventSource.CLOSED) stopped('Live updates are off on this page: the server refused them, most likely because your dashboards are open in too many other browsers. Close some and reload.');
  });
  source.addEventListener('signed-out', () => {
    // The server says why on the way to the sign-in form.
    source.close();
    window.location.reload();
  });
}

// A past view's instant in the reader's own time zone, beside the UTC the server wrote.
for (const element of document.querySelectorAll('[data-local-time]')) {
  const at = new Date(element.dataset.localTime);
  element.textContent = '(' + at.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'long' }) + ', your time)';
  element.hidden = false;
}

// A table wider than the screen scrolls inside its frame: the frame then takes the keyboard focus,
// named by the table's caption, so it can be scrolled without a mouse.
function scrollableTables() {
  for (const wrap of document.querySelectorAll('.table-wrap')) {
    if (wrap.scrollWidth <= wrap.clientWidth + 1 || wrap.hasAttribute('tabindex')) continue;
    const caption = wrap.querySelector('caption');
    wrap.tabIndex = 0;
    wrap.setAttribute('role', 'region');
    wrap.setAttribute('aria-label', caption ? caption.textContent.trim() : 'Table');
  }
}
scrollableTables();
window.addEventListener('resize', scrollableTables);
`;
