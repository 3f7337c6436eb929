import * as t from 'io-ts';
import { isRight } from 'fp-ts/lib/Either.js';
import type { ChannelType } from '../../domain/notifications/channel.js';
import { SAMPLE_VIEW, bodyEscaping, renderTemplate, templateProblem } from '../../notifications/template.js';
import { BodyOf, BoundedString, Checked, Email, Integer, OneOf } from '../validation.js';
import { withRefinementKeywords } from '../json-schema.js';

const HttpUrl = (field: string) =>
  Checked<string>('an http or https URL', (u) => {
    if (typeof u !== 'string' || u.length > 2048) return { ok: false, message: `config.${field} must be an http or https URL` };
    try {
      const url = new URL(u);
      return url.protocol === 'http:' || url.protocol === 'https:' ? { ok: true, value: u } : { ok: false, message: `config.${field} must be an http or https URL` };
    } catch {
      return { ok: false, message: `config.${field} must be an http or https URL` };
    }
  });

const Secret = (field: string, min = 1) =>
  Checked<string>('a secret string', (u) =>
    typeof u === 'string' && u.length >= min && u.length <= 1024 && !/[\r\n]/.test(u)
      ? { ok: true, value: u }
      : { ok: false, message: `config.${field} must be a single-line string of ${min} to 1024 characters` },
  );

const Headers = Checked<Record<string, string>>('an object of header names to values', (u) => {
  if (typeof u !== 'object' || u === null || Array.isArray(u)) return { ok: false, message: 'config.headers must be an object of header names to string values' };
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(u)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/.test(name) || typeof value !== 'string' || /[\r\n]/.test(value)) {
      return { ok: false, message: `config.headers.${name} must be a valid header name with a single-line string value` };
    }
    out[name] = value;
  }
  return { ok: true, value: out };
});

const Recipients = withRefinementKeywords(
  t.refinement(t.array(Email), (list) => list.length >= 1 && list.length <= 20, 'an array of 1 to 20 email addresses'),
  { minItems: 1, maxItems: 20 },
);

const MatrixRoomId = Checked<string>('a Matrix room id such as !abc123:example.org', (u) =>
  typeof u === 'string' && /^![\x21-\x7e]{1,254}$/.test(u)
    ? { ok: true, value: u }
    : { ok: false, message: 'config.room_id must be a Matrix room id such as !abc123:example.org (an alias such as #room:example.org is not accepted: copy the id from the room settings)' },
);

const Template = (field: string, max: number) =>
  Checked<string>(`a template of 1 to ${max} characters`, (u) => {
    if (typeof u !== 'string' || u.length < 1 || u.length > max) return { ok: false, message: `config.${field} must be a template of 1 to ${max} characters` };
    const problem = templateProblem(u);
    return problem ? { ok: false, message: `config.${field} is not a valid template: ${problem}` } : { ok: true, value: u };
  });

const ContentType = Checked<string>('a media type such as application/json', (u) =>
  typeof u === 'string' && /^[\w.+-]+\/[\w.+-]+(\s*;\s*[\w.+-]+=[\w.+"-]+)*$/.test(u) && u.length <= 200
    ? { ok: true, value: u }
    : { ok: false, message: 'config.content_type must be a media type such as application/json' },
);

/** A config codec with a rule across its fields, checked once each field has passed its own. */
function withRule<C extends t.Any>(codec: C, rule: (config: Record<string, unknown>) => string | null): C {
  const validate: t.Validate<unknown, t.TypeOf<C>> = (u, c) => {
    const result = codec.validate(u, c);
    if (!isRight(result)) return result;
    const problem = rule(result.right as Record<string, unknown>);
    return problem ? t.failure(u, c, problem) : result;
  };
  return (codec instanceof t.IntersectionType ? new t.IntersectionType(codec.name, codec.is, validate, codec.encode, codec.types) : codec) as C;
}

/**
 * A templated webhook's URL and body are rendered with a sample page when written, so a template
 * that cannot make a valid URL, or a JSON body that is no JSON, is refused then and not at 3 a.m.
 */
function templatedWebhookProblem(config: Record<string, unknown>): string | null {
  const url = renderTemplate(String(config['url']), SAMPLE_VIEW, 'url');
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'config.url must render to an http or https URL';
  } catch {
    return 'config.url must render to an http or https URL';
  }
  const method = config['method'] ?? 'POST';
  const template = config['body_template'];
  if (typeof template !== 'string') return null;
  if (method === 'GET') return 'config.body_template is not sent with GET: remove it or choose POST, PUT or PATCH';
  const contentType = typeof config['content_type'] === 'string' ? config['content_type'] : 'application/json';
  if (bodyEscaping(contentType) !== 'json') return null;
  try {
    JSON.parse(renderTemplate(template, SAMPLE_VIEW, 'json'));
    return null;
  } catch (error) {
    return `config.body_template must render to JSON for ${contentType} (put {{field}} inside quotes; it is written as the inside of a JSON string): ${error instanceof Error ? error.message : String(error)}`;
  }
}

interface ChannelTypeSpec {
  name: string;
  codec: t.Decoder<unknown, Record<string, unknown>> & t.Any;
  /** What `/types` shows: each field, whether it is required, and whether it is secret. */
  schema: Record<string, { type: string; required: boolean; secret: boolean; description: string }>;
}

const field = (type: string, required: boolean, secret: boolean, description: string) => ({ type, required, secret, description });

/** Every channel type: its config codec (checked on create and update) and the schema `/types` shows. */
export const CHANNEL_TYPE_SPECS: Record<ChannelType, ChannelTypeSpec> = {
  WEBHOOK: {
    name: 'Webhook',
    codec: BodyOf({ url: HttpUrl('url') }, { secret: Secret('secret', 16), headers: Headers }),
    schema: {
      url: field('url', true, true, 'Where the JSON payload is POSTed'),
      secret: field('string', false, true, 'Standard Webhooks signing secret (whsec_…); generated and shown once when absent'),
      headers: field('object', false, true, 'Extra request headers'),
    },
  },
  SLACK: { name: 'Slack', codec: BodyOf({ webhook_url: HttpUrl('webhook_url') }, {}), schema: { webhook_url: field('url', true, true, 'Slack incoming webhook URL') } },
  DISCORD: { name: 'Discord', codec: BodyOf({ webhook_url: HttpUrl('webhook_url') }, {}), schema: { webhook_url: field('url', true, true, 'Discord channel webhook URL') } },
  MSTEAMS: {
    name: 'Microsoft Teams',
    codec: BodyOf({ webhook_url: HttpUrl('webhook_url') }, {}),
    schema: { webhook_url: field('url', true, true, 'Teams incoming webhook or workflow URL') },
  },
  TELEGRAM: {
    name: 'Telegram',
    codec: BodyOf({ bot_token: Secret('bot_token', 10), chat_id: BoundedString(1, 64) }, { api_base: HttpUrl('api_base') }),
    schema: {
      bot_token: field('string', true, true, 'Bot token from @BotFather'),
      chat_id: field('string', true, false, 'Chat, group or channel id'),
      api_base: field('url', false, false, 'Bot API base URL; default https://api.telegram.org'),
    },
  },
  PAGERDUTY: {
    name: 'PagerDuty',
    codec: BodyOf({ routing_key: Secret('routing_key', 8) }, { api_base: HttpUrl('api_base') }),
    schema: {
      routing_key: field('string', true, true, 'Events API v2 integration (routing) key'),
      api_base: field('url', false, false, 'Events API base URL; default https://events.pagerduty.com'),
    },
  },
  OPSGENIE: {
    name: 'Opsgenie',
    codec: BodyOf({ api_key: Secret('api_key', 8) }, { api_base: HttpUrl('api_base') }),
    schema: {
      api_key: field('string', true, true, 'Opsgenie API integration key'),
      api_base: field('url', false, false, 'Alert API base URL; default https://api.opsgenie.com (EU: https://api.eu.opsgenie.com)'),
    },
  },
  NTFY: {
    name: 'ntfy',
    codec: BodyOf({ topic: BoundedString(1, 64) }, { server: HttpUrl('server'), token: Secret('token', 1), priority: Integer(1, 5) }),
    schema: {
      topic: field('string', true, true, 'Topic to publish to'),
      server: field('url', false, false, 'ntfy server; default https://ntfy.sh'),
      token: field('string', false, true, 'Access token'),
      priority: field('integer', false, false, 'Priority 1-5 for problem pages; default 4'),
    },
  },
  EMAIL: {
    name: 'Email',
    codec: BodyOf({ to: Recipients }, {}),
    schema: { to: field('array of email', true, false, 'Recipients; the SMTP server is set by VIGIL_SMTP_* on the server') },
  },
  MATTERMOST: {
    name: 'Mattermost',
    codec: BodyOf({ webhook_url: HttpUrl('webhook_url') }, { username: BoundedString(1, 64), icon_url: HttpUrl('icon_url'), channel: BoundedString(1, 64) }),
    schema: {
      webhook_url: field('url', true, true, 'Mattermost incoming webhook URL (https://chat.example.com/hooks/…)'),
      username: field('string', false, false, 'Name the post shows, where the server allows webhooks to override it'),
      icon_url: field('string', false, false, 'Profile picture the post shows, where the server allows webhooks to override it'),
      channel: field('string', false, false, 'Channel name to post in instead of the webhook’s own, where the webhook is not locked to it'),
    },
  },
  MATRIX: {
    name: 'Matrix',
    codec: BodyOf({ homeserver: HttpUrl('homeserver'), access_token: Secret('access_token', 8), room_id: MatrixRoomId }, {}),
    schema: {
      homeserver: field('url', true, false, 'Client-server API base URL of the homeserver, e.g. https://matrix.example.org'),
      access_token: field('string', true, true, 'Access token of the account that posts (a bot user that has joined the room)'),
      room_id: field('string', true, false, 'Room id, e.g. !abc123:example.org'),
    },
  },
  GOTIFY: {
    name: 'Gotify',
    codec: BodyOf({ server: HttpUrl('server'), token: Secret('token', 4) }, { priority: Integer(0, 10) }),
    schema: {
      server: field('url', true, false, 'Gotify server URL, e.g. https://gotify.example.com'),
      token: field('string', true, true, 'Application token'),
      priority: field('integer', false, false, 'Priority 0-10 for problem pages; default 8 (recoveries and acknowledgements are sent at 4)'),
    },
  },
  PUSHOVER: {
    name: 'Pushover',
    codec: BodyOf({ app_token: Secret('app_token', 8), user_key: Secret('user_key', 8) }, { priority: Integer(-2, 1), device: BoundedString(1, 25), api_base: HttpUrl('api_base') }),
    schema: {
      app_token: field('string', true, true, 'Application API token'),
      user_key: field('string', true, true, 'User or group key of the recipients'),
      priority: field('integer', false, false, 'Priority -2 to 1 for problem pages; default 1 (high); recoveries are sent at 0'),
      device: field('string', false, false, 'Send to this device of the user only'),
      api_base: field('url', false, false, 'API base URL; default https://api.pushover.net'),
    },
  },
  GOOGLE_CHAT: {
    name: 'Google Chat',
    codec: BodyOf({ webhook_url: HttpUrl('webhook_url') }, {}),
    schema: { webhook_url: field('url', true, true, 'Google Chat space webhook URL (https://chat.googleapis.com/v1/spaces/…/messages?key=…&token=…)') },
  },
  TEMPLATED_WEBHOOK: {
    name: 'Templated webhook',
    codec: withRule(
      BodyOf(
        { url: HttpUrl('url') },
        { method: OneOf(['POST', 'PUT', 'PATCH', 'GET'] as const), headers: Headers, content_type: ContentType, body_template: Template('body_template', 10_000) },
      ),
      templatedWebhookProblem,
    ),
    schema: {
      url: field('url', true, true, 'Where the request goes; may hold {{fields}}, written URL-encoded'),
      method: field('string', false, false, 'POST (default), PUT, PATCH or GET'),
      headers: field('object', false, true, 'Extra request headers, sent as written'),
      content_type: field('string', false, false, 'Content-Type of the body; default application/json'),
      body_template: field(
        'string',
        false,
        false,
        'Mustache template of the body: {{incident.id}}, {{incident.event}}, {{incident.status}}, {{incident.cause}}, {{incident.started_at}}, {{monitor.name}}, {{monitor.slug}}, {{monitor.status}}, {{event}}, {{reason}}, {{title}}, {{text}}, {{occurred_at}}, {{project_id}}; values are JSON-escaped in a JSON body and form-encoded in a form body. Default: the WEBHOOK payload',
      ),
    },
  },
};
