import * as t from 'io-ts';
import type { ChannelType } from '../../domain/notifications/channel.js';
import { BodyOf, BoundedString, Checked, Email, Integer } from '../validation.js';
import { withRefinementKeywords } from '../openapi/json-schema.js';

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
};
