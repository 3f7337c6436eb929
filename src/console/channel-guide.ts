import type { ChannelType } from '../domain/notifications/channel.js';

/** A channel type in words: what it does, and what each of its config fields is called on the form. */
export interface ChannelGuide {
  /** What a page through this channel does, for someone choosing one. */
  does: string;
  /** The form's label of each config field; the API's field names stay out of the console. */
  labels: Record<string, string>;
}

export const CHANNEL_GUIDES: Record<ChannelType, ChannelGuide> = {
  WEBHOOK: {
    does: 'Sends each page as a JSON POST, signed with a secret (Standard Webhooks), to an address you run: for your own scripts and any service that takes webhooks.',
    labels: { url: 'Webhook URL', secret: 'Signing secret', headers: 'Extra headers' },
  },
  SLACK: { does: 'Posts each page into a Slack channel through an incoming webhook.', labels: { webhook_url: 'Slack webhook URL' } },
  DISCORD: { does: 'Posts each page into a Discord channel through the channel’s webhook.', labels: { webhook_url: 'Discord webhook URL' } },
  MSTEAMS: { does: 'Posts each page as a card into a Microsoft Teams channel, through an incoming webhook or a Workflows URL.', labels: { webhook_url: 'Teams webhook URL' } },
  TELEGRAM: {
    does: 'A Telegram bot sends each page to a chat, group or channel it has been added to.',
    labels: { bot_token: 'Bot token', chat_id: 'Chat id', api_base: 'Bot API address' },
  },
  PAGERDUTY: {
    does: 'Opens a PagerDuty incident for each Vigil incident, and acknowledges and resolves it with Vigil’s (Events API v2).',
    labels: { routing_key: 'Integration key', api_base: 'Events API address' },
  },
  OPSGENIE: { does: 'Creates an Opsgenie alert for each incident, and acknowledges and closes it with Vigil’s.', labels: { api_key: 'API key', api_base: 'Alert API address' } },
  NTFY: {
    does: 'Publishes each page to an ntfy topic: push notifications on phones and desktops subscribed to it.',
    labels: { topic: 'Topic', server: 'ntfy server', token: 'Access token', priority: 'Priority' },
  },
  EMAIL: { does: 'Sends an email for each page through the SMTP server this Vigil is set up with.', labels: { to: 'Recipients' } },
  MATTERMOST: {
    does: 'Posts each page into a Mattermost channel through an incoming webhook.',
    labels: { webhook_url: 'Mattermost webhook URL', username: 'Post as (name)', icon_url: 'Post icon URL', channel: 'Channel' },
  },
  MATRIX: {
    does: 'A Matrix account (a bot user that has joined the room) posts each page into a room.',
    labels: { homeserver: 'Homeserver URL', access_token: 'Access token', room_id: 'Room id' },
  },
  GOTIFY: { does: 'Pushes each page to a self-hosted Gotify server, as an application.', labels: { server: 'Gotify server URL', token: 'Application token', priority: 'Priority' } },
  PUSHOVER: {
    does: 'Pushes each page to phones through Pushover.',
    labels: { app_token: 'Application token', user_key: 'User or group key', priority: 'Priority', device: 'Device', api_base: 'API address' },
  },
  GOOGLE_CHAT: { does: 'Posts each page into a Google Chat space through its webhook.', labels: { webhook_url: 'Google Chat webhook URL' } },
  TEMPLATED_WEBHOOK: {
    does: 'Sends a request you shape (method, headers, a body from a template) to any address: for services with an API of their own.',
    labels: { url: 'URL', method: 'Method', headers: 'Extra headers', content_type: 'Content type', body_template: 'Body template' },
  },
};

/** The form's label of a channel config field. */
export const fieldLabel = (type: ChannelType, field: string): string => CHANNEL_GUIDES[type].labels[field] ?? field;

/**
 * An API error about a channel, in the form's words: `config.url must be …` becomes `Webhook URL
 * must be …`, `config.to[1]` becomes `Recipients (line 2)`, `config.headers.X-Token` becomes
 * `Extra headers (X-Token)`. Returns the message and the field at fault (a config field, `name`, or null).
 */
export function formError(type: ChannelType, message: string): { field: string | null; message: string } {
  const first = /^config\.(\w+)/.exec(message)?.[1] ?? (/^name\b/.test(message) ? 'name' : null);
  const worded = message
    .replace(/config\.(\w+)(?:\[(\d+)\]|\.([!#$%&'*+.^_`|~0-9A-Za-z-]+))?/g, (_, field: string, index?: string, key?: string) =>
      `${fieldLabel(type, field)}${index !== undefined ? ` (line ${Number(index) + 1})` : key !== undefined ? ` (${key})` : ''}`)
    .replace(/^name\b/, 'Name');
  return { field: first, message: worded.charAt(0).toUpperCase() + worded.slice(1) };
}
