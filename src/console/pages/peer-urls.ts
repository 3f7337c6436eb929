import type { MonitorDocument } from '../../../projections/monitors.js';
import type { ProjectDocument } from '../../../projections/projects.js';
import { type Html, html } from '../html.js';

/**
 * The ping URLs of the tools people come from, which Vigil answers as those tools do (docs/api.md,
 * "Other tools' clients"): a job keeps its client and changes only the host.
 */

function copyable(id: string, label: string, text: string): Html {
  return html`<span class="copy-label" id="${id}-label">${label}</span>
<div class="copy-row"><code id="${id}" tabindex="0">${text}</code><button type="button" class="button button-secondary button-small" data-copy="${id}" aria-describedby="${id}-label" hidden>Copy</button></div>`;
}

/** `http://<ping key>@<host>/1`: a Sentry DSN whose public key is the project's ping key. */
export function sentryDsn(project: ProjectDocument, origin: string): string {
  const { protocol, host } = new URL(origin);
  return `${protocol}//${project.ping_key}@${host}/1`;
}

/** On a monitor's page, under its own ping URLs: the same monitor, addressed as each peer addresses it. */
export function peerPingUrls(m: MonitorDocument, project: ProjectDocument, origin: string): Html {
  return html`<details class="peer-urls"><summary>Healthchecks, Uptime Kuma and Sentry clients</summary>
<p class="hint">Jobs that already report to one of these tools keep their client: only the host changes. An imported check or push monitor also keeps answering at the URL it had there.</p>
${copyable('url-hc', 'Healthchecks (also /start, /fail, /log, /<exit status>)', `${origin}/ping/${m.id}`)}
${copyable('url-hc-slug', 'Healthchecks by slug', `${origin}/ping/${project.ping_key}/${m.slug}`)}
${copyable('url-kuma', 'Uptime Kuma push', `${origin}/api/push/${m.id}?status=up&msg=OK&ping=`)}
${copyable('url-sentry-dsn', 'Sentry DSN (with the monitor slug below)', sentryDsn(project, origin))}
${copyable('url-sentry-slug', 'Sentry monitor slug', m.slug)}
</details>`;
}

/** On the project's sharing page: the DSN a Sentry SDK sends its check-ins to. */
export function peerClientsPanel(project: ProjectDocument, origin: string): Html {
  return html`<section class="panel" aria-labelledby="peer-clients"><h2 id="peer-clients">Sentry Crons, Healthchecks and Uptime Kuma clients</h2>
<p class="hint">A job instrumented with a Sentry SDK reports its check-ins to this project when its DSN is the one below; a check-in's <code>monitor_config</code> creates the monitor where the project creates monitors on a first ping. The DSN holds the project's ping key: rotating the key changes it.</p>
${copyable('sentry-dsn', 'Sentry DSN', sentryDsn(project, origin))}
${copyable('hc-slug-base', 'Healthchecks ping URL by slug', `${origin}/ping/${project.ping_key}/<slug>`)}
<p class="hint">Each monitor's page lists its Healthchecks and Uptime Kuma URLs.</p>
</section>`;
}
