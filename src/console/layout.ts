import { ASSETS, type Asset } from './assets.js';
import { type Fragment, type Html, html, trustedHtml } from './html.js';

/** Who is signed in, for the header; null on the sign-in and error pages of a signed-out browser. */
export interface Viewer {
  email: string;
  csrfToken: string;
}

export interface Crumb {
  label: string;
  href?: string;
}

const LOGO = html`<svg class="brand-mark" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" stroke-width="2.5"></circle><path d="M6 12h3l2-4 2 8 2-4h3" fill="none" stroke="currentColor" stroke-width="2" stroke-linejoin="round" stroke-linecap="round"></path></svg>`;

/** A hidden field with the session's CSRF token: every state-changing form carries one. */
export function csrfField(viewer: Viewer): Html {
  return html`<input type="hidden" name="csrf_token" value="${viewer.csrfToken}">`;
}

/** The pages of a project, as its nav lists them: each feature adds its entry here; `path` follows `/projects/<id>`. */
export const PROJECT_PAGES: readonly { path: string; label: string }[] = [
  { path: '', label: 'Monitors' },
  { path: '/sharing', label: 'Badges & status pages' },
  { path: '/maintenance', label: 'Maintenance' },
  { path: '/audit', label: 'Audit' },
  { path: '/settings', label: 'Settings' },
];

/** The project's nav; `current` is the path of the page shown (`''` for the dashboard). */
export function projectNav(projectId: string, current: string): Html {
  return html`<nav class="project-nav" aria-label="Project"><ul>${PROJECT_PAGES.map((p) =>
    html`<li><a href="/projects/${projectId}${p.path}"${p.path === current ? html` aria-current="page"` : null}>${p.label}</a></li>`)}</ul></nav>`;
}

/** `scripts`: what the page loads after the console's script, in order (the passkey forms' library and script). */
export function page(options: {
  title: string; viewer: Viewer | null; crumbs?: readonly Crumb[]; notice?: string | null; nav?: Html | null; project?: { id: string; current: string }; scripts?: readonly Asset[]; body: Fragment;
}): Html {
  const { title, viewer, crumbs = [], notice = null, nav = null, scripts = [], body } = options;
  return html`${trustedHtml('<!doctype html>')}
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${title} · Vigil</title>
<link rel="icon" href="${ASSETS.favicon.path}" type="image/svg+xml">
<link rel="stylesheet" href="${ASSETS.css.path}">
<script type="module" src="${ASSETS.js.path}"></script>
${scripts.map((script) => html`<script defer src="${script.path}"></script>
`)}</head>
<body>
<a class="skip-link" href="#main">Skip to the content</a>
<header class="topbar">
<div class="topbar-inner">
<a class="brand" href="/">${LOGO}Vigil</a>
${viewer
  ? html`<div class="who"><span>Signed in as <a class="who-account" href="/account"><strong>${viewer.email}</strong></a></span>
<form method="post" action="/sign-out">${csrfField(viewer)}<button type="submit" class="button-quiet-light">Sign out</button></form></div>`
  : null}
</div>
</header>
<main id="main">
${crumbs.length > 0
  ? html`<nav aria-label="Breadcrumb"><ol class="breadcrumbs">${crumbs.map((c) => html`<li>${c.href ? html`<a href="${c.href}">${c.label}</a>` : html`<span aria-current="page">${c.label}</span>`}</li>`)}</ol></nav>`
  : null}
${nav ?? (options.project ? projectNav(options.project.id, options.project.current) : null)}
${notice ? html`<div class="notice" role="status">${notice}</div>` : null}
${body}
</main>
<div id="live-announcer" class="visually-hidden" aria-live="polite"></div>
</body>
</html>
`;
}

export function statusBadge(status: keyof typeof STATUS_TEXT): Html {
  const text = STATUS_TEXT[status];
  return html`<span class="status status-${status.toLowerCase()}">${text}</span>`;
}

/** The console's words for a monitor's state (src/queries/monitor-state.ts); docs/concepts.md says what each means. */
export const STATUS_TEXT = {
  UP: 'UP', DEGRADED: 'DEGRADED', LATE: 'LATE', DOWN: 'DOWN', MAINTENANCE: 'MAINTENANCE', PAUSED: 'PAUSED', WAITING: 'Waiting for first ping',
} as const;

export function incidentBadge(status: 'OPEN' | 'ACKNOWLEDGED' | 'RESOLVED'): Html {
  return html`<span class="status status-${status.toLowerCase()}">${status}</span>`;
}

/** A time as "3 min ago", with the exact UTC time in `datetime` and as the tooltip. */
export function timeAgo(iso: string | null, now: Date, relative: (iso: string, now: Date) => string, none = 'never'): Html {
  if (iso === null) return html`<span class="muted">${none}</span>`;
  return html`<time datetime="${iso}" title="${iso}">${relative(iso, now)}</time>`;
}
