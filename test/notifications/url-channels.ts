import type { ChannelType } from '../../src/domain/notifications/channel.js';

/** Every channel type that takes a URL: its config with the host under test at `base`, and the field that holds it. */
export const URL_CHANNELS: readonly { type: ChannelType; field: string; config: (base: string) => Record<string, unknown> }[] = [
  { type: 'WEBHOOK', field: 'url', config: (base) => ({ url: `${base}/hook?token=SECRET-TOKEN`, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }) },
  { type: 'SLACK', field: 'webhook_url', config: (base) => ({ webhook_url: `${base}/services/T0/B0/SECRET-TOKEN` }) },
  { type: 'DISCORD', field: 'webhook_url', config: (base) => ({ webhook_url: `${base}/api/webhooks/1/SECRET-TOKEN` }) },
  { type: 'MSTEAMS', field: 'webhook_url', config: (base) => ({ webhook_url: `${base}/workflows/SECRET-TOKEN` }) },
  { type: 'TELEGRAM', field: 'api_base', config: (base) => ({ bot_token: '123456:SECRET-TOKEN', chat_id: '-1001', api_base: base }) },
  { type: 'PAGERDUTY', field: 'api_base', config: (base) => ({ routing_key: 'SECRET-TOKEN', api_base: base }) },
  { type: 'OPSGENIE', field: 'api_base', config: (base) => ({ api_key: 'SECRET-TOKEN', api_base: base }) },
  { type: 'NTFY', field: 'server', config: (base) => ({ topic: 'alerts', server: base, token: 'SECRET-TOKEN' }) },
  { type: 'MATTERMOST', field: 'webhook_url', config: (base) => ({ webhook_url: `${base}/hooks/SECRET-TOKEN` }) },
  { type: 'MATRIX', field: 'homeserver', config: (base) => ({ homeserver: base, access_token: 'SECRET-TOKEN', room_id: '!room:example.org' }) },
  { type: 'GOTIFY', field: 'server', config: (base) => ({ server: base, token: 'SECRET-TOKEN' }) },
  { type: 'PUSHOVER', field: 'api_base', config: (base) => ({ app_token: 'SECRET-TOKEN', user_key: 'SECRET-USER', api_base: base }) },
  { type: 'GOOGLE_CHAT', field: 'webhook_url', config: (base) => ({ webhook_url: `${base}/v1/spaces/A/messages?key=K&token=SECRET-TOKEN` }) },
  { type: 'TEMPLATED_WEBHOOK', field: 'url', config: (base) => ({ url: `${base}/alert?token=SECRET-TOKEN&m={{monitor.slug}}`, body_template: '{"text": "{{text}}"}' }) },
];
