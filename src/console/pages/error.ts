import { HttpError } from '../../web/errors.js';
import { type Html, html } from '../html.js';
import { type Viewer, page } from '../layout.js';

/** A link the error page offers before the way back to the projects: where the person most likely wanted to go. */
export interface WayOn {
  href: string;
  label: string;
}

/** A refusal whose page offers a way on: a past view asked for a moment it cannot show offers the page now. */
export class RefusalWithWayOn extends HttpError {
  constructor(
    refusal: HttpError,
    readonly wayOn: WayOn,
  ) {
    super(refusal.status, refusal.message, refusal.code, refusal.headers);
  }
}

const TITLES: Record<number, string> = {
  400: 'That request was not right',
  403: 'You cannot do that',
  404: 'Page not found',
  429: 'Too many requests',
  503: 'Not ready yet',
};

/** A message that begins with a field's name (`as_of must be…`, `config.url is required`) keeps it as sent. */
const FIELD_FIRST = /^[a-z][a-z0-9]*[_.[]/;

export function errorPage(status: number, message: string, viewer: Viewer | null, wayOn: WayOn | null = null): Html {
  const sentence = FIELD_FIRST.test(message) ? message : message.charAt(0).toUpperCase() + message.slice(1);
  const title = TITLES[status] ?? (status >= 500 ? 'Something went wrong' : 'That did not work');
  return page({
    title,
    viewer,
    body: html`<div class="panel error-page"><h1>${title}</h1>
<p>${status >= 500 && status !== 503 ? 'The server could not answer this request. It has been logged; try again in a moment.' : sentence}</p>
${status === 503 ? html`<p>Vigil is busy or still starting up: reload this page in a few seconds.</p>` : null}
<p class="muted">HTTP ${status}</p>
${wayOn ? html`<p><a href="${wayOn.href}">${wayOn.label}</a></p>` : null}
<p><a href="/">Back to your projects</a></p></div>`,
  });
}
