import fetch, { type RequestInit } from 'node-fetch';
import nodemailer from 'nodemailer';
import { Webhook } from 'standardwebhooks';
import type { ChannelType } from '../domain/notifications/channel.js';
import { type OutboundGuard, refusalIn } from '../outbound/guard.js';
import type { PageMessage } from './message.js';
import { bodyEscaping, renderTemplate, templateView } from './template.js';

export interface SmtpSettings {
  host: string;
  port: number;
  secure: boolean;
  user: string | null;
  password: string | null;
  from: string;
}

export interface DeliveryContext {
  timeoutMs: number;
  /** The operator's own SMTP server: reached as configured, not through the outbound guard. */
  smtp: SmtpSettings | null;
  /** Every HTTP delivery (and any redirect it follows) connects through this guard. */
  outbound: OutboundGuard;
  now: () => Date;
}

/**
 * A failed delivery; its message names the problem and never a secret (hosts, not URLs). A final
 * one (a target the outbound policy refuses) is not worth retrying.
 */
export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly final = false,
  ) {
    super(message);
  }
}

type Config = Record<string, unknown>;
const text = (config: Config, key: string) => String(config[key] ?? '');
const optional = (config: Config, key: string) => (typeof config[key] === 'string' ? String(config[key]) : null);
const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return 'the configured address';
  }
};

/** One HTTP request through the outbound guard; a refused target fails before any connection is made. */
async function send(url: string, init: RequestInit, context: DeliveryContext): Promise<void> {
  const refused = context.outbound.refusalOfUrl(url);
  if (refused) throw new DeliveryError(refused.message, true);
  let response;
  try {
    response = await fetch(url, { ...init, agent: context.outbound.fetchAgent, signal: AbortSignal.timeout(context.timeoutMs) });
  } catch (error) {
    const refusal = refusalIn(error);
    if (refusal !== null) throw new DeliveryError(refusal, true);
    const name = error instanceof Error ? error.name : '';
    if (name === 'AbortError' || name === 'TimeoutError') throw new DeliveryError(`no answer from ${hostOf(url)} within ${context.timeoutMs} ms`);
    const code = (error as { code?: string }).code;
    throw new DeliveryError(`could not reach ${hostOf(url)}${code ? ` (${code})` : ''}`);
  }
  await response.arrayBuffer().catch(() => undefined);
  if (!response.ok) throw new DeliveryError(`${hostOf(url)} answered HTTP ${response.status}`);
}

function post(url: string, body: string, headers: Record<string, string>, context: DeliveryContext, message: PageMessage): Promise<void> {
  return send(
    url,
    {
      method: 'POST',
      body,
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'Vigil-Notifier/0.1', 'Idempotency-Key': message.idempotency_key, ...headers },
      redirect: 'error',
    },
    context,
  );
}

const json = (value: unknown) => JSON.stringify(value);
const problem = (message: PageMessage) => message.reason === 'opened' || message.reason === 'repage';
const baseOf = (config: Config, key: string, fallback: string) => (optional(config, key) ?? fallback).replace(/\/+$/, '');
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Matrix de-duplicates on the transaction id per access token: one derived from the page and the
 * channel makes a retried delivery the same message, not a second one.
 */
export const matrixTransactionId = (message: PageMessage) => `vigil-${message.idempotency_key.replace(/[^A-Za-z0-9._~-]/g, '_')}`;

function templatedWebhook(config: Config, message: PageMessage, context: DeliveryContext): Promise<void> {
  const view = templateView(message);
  const method = optional(config, 'method') ?? 'POST';
  const contentType = optional(config, 'content_type') ?? 'application/json';
  const template = optional(config, 'body_template');
  const body = method === 'GET' ? undefined : template === null ? json(message.payload) : renderTemplate(template, view, bodyEscaping(contentType));
  const extra = typeof config['headers'] === 'object' && config['headers'] !== null ? (config['headers'] as Record<string, string>) : {};
  return send(
    renderTemplate(text(config, 'url'), view, 'url'),
    {
      method,
      ...(body === undefined ? {} : { body }),
      headers: { 'User-Agent': 'Vigil-Notifier/0.1', 'Idempotency-Key': message.idempotency_key, ...(body === undefined ? {} : { 'Content-Type': contentType }), ...extra },
      redirect: 'error',
    },
    context,
  );
}

/** Sends one page to one channel, as that service expects it. Throws DeliveryError on failure. */
export async function deliver(type: ChannelType, config: Config, message: PageMessage, context: DeliveryContext): Promise<void> {
  switch (type) {
    case 'WEBHOOK': {
      const body = json(message.payload);
      const timestamp = context.now();
      const signature = new Webhook(text(config, 'secret')).sign(message.idempotency_key, timestamp, body);
      const extra = typeof config['headers'] === 'object' && config['headers'] !== null ? (config['headers'] as Record<string, string>) : {};
      return post(text(config, 'url'), body, {
        ...extra,
        'webhook-id': message.idempotency_key,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': signature,
      }, context, message);
    }
    case 'SLACK':
      return post(text(config, 'webhook_url'), json({ text: message.text }), {}, context, message);
    case 'DISCORD':
      return post(text(config, 'webhook_url'), json({ content: message.text.slice(0, 2000), allowed_mentions: { parse: [] } }), {}, context, message);
    case 'MSTEAMS':
      return post(
        text(config, 'webhook_url'),
        json({
          type: 'message',
          attachments: [
            {
              contentType: 'application/vnd.microsoft.card.adaptive',
              contentUrl: null,
              content: {
                $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
                type: 'AdaptiveCard',
                version: '1.4',
                body: [
                  { type: 'TextBlock', text: message.title, weight: 'Bolder', size: 'Medium', wrap: true },
                  { type: 'TextBlock', text: message.incident?.cause ?? message.text, wrap: true },
                ],
              },
            },
          ],
        }),
        {},
        context,
        message,
      );
    case 'TELEGRAM': {
      const base = optional(config, 'api_base') ?? 'https://api.telegram.org';
      return post(`${base.replace(/\/$/, '')}/bot${text(config, 'bot_token')}/sendMessage`, json({ chat_id: text(config, 'chat_id'), text: message.text, disable_web_page_preview: true }), {}, context, message);
    }
    case 'PAGERDUTY': {
      const base = optional(config, 'api_base') ?? 'https://events.pagerduty.com';
      const action = problem(message) ? 'trigger' : message.reason === 'acknowledged' ? 'acknowledge' : 'resolve';
      const incident = message.incident;
      return post(
        `${base.replace(/\/$/, '')}/v2/enqueue`,
        json({
          routing_key: text(config, 'routing_key'),
          event_action: action,
          // The incident id, so PagerDuty's incident follows ours: re-pages group, resolve resolves.
          dedup_key: message.incident_id,
          ...(action === 'trigger'
            ? {
                payload: {
                  summary: message.text.slice(0, 1024),
                  source: message.monitor?.slug ?? 'vigil',
                  severity: 'critical',
                  timestamp: message.occurred_at,
                  component: message.monitor?.name ?? undefined,
                  custom_details: { incident_id: message.incident_id, event: incident?.event, cause: incident?.cause, monitor_id: message.monitor?.id },
                },
              }
            : {}),
        }),
        {},
        context,
        message,
      );
    }
    case 'OPSGENIE': {
      const base = (optional(config, 'api_base') ?? 'https://api.opsgenie.com').replace(/\/$/, '');
      const auth = { Authorization: `GenieKey ${text(config, 'api_key')}` };
      const alias = encodeURIComponent(message.incident_id);
      if (problem(message)) {
        return post(
          `${base}/v2/alerts`,
          json({ message: message.title.slice(0, 130), alias: message.incident_id, description: message.text.slice(0, 15000), priority: 'P1', source: 'Vigil', tags: [message.incident?.event ?? 'INCIDENT'] }),
          auth,
          context,
          message,
        );
      }
      const action = message.reason === 'acknowledged' ? 'acknowledge' : 'close';
      return post(`${base}/v2/alerts/${alias}/${action}?identifierType=alias`, json({ source: 'Vigil', note: message.text.slice(0, 25000) }), auth, context, message);
    }
    case 'NTFY': {
      const server = (optional(config, 'server') ?? 'https://ntfy.sh').replace(/\/$/, '');
      const token = optional(config, 'token');
      const priority = problem(message) ? String(config['priority'] ?? 4) : '3';
      // ntfy servers may redirect; each hop connects through the guard like the first.
      return send(
        `${server}/${encodeURIComponent(text(config, 'topic'))}`,
        {
          method: 'POST',
          body: message.incident?.cause ?? message.text,
          headers: {
            Title: message.subject.replace(/[^\x20-\x7e]/g, '').trim(),
            Priority: priority,
            Tags: problem(message) ? 'rotating_light' : 'white_check_mark',
            'Idempotency-Key': message.idempotency_key,
            ...(token ? { Authorization: `Bearer ${token}` } : {}),
          },
        },
        context,
      );
    }
    case 'MATTERMOST': {
      const color = problem(message) ? '#d92d20' : message.reason === 'acknowledged' ? '#f79009' : '#12b76a';
      return post(
        text(config, 'webhook_url'),
        json({
          text: message.title,
          ...(optional(config, 'username') ? { username: text(config, 'username') } : {}),
          ...(optional(config, 'icon_url') ? { icon_url: text(config, 'icon_url') } : {}),
          ...(optional(config, 'channel') ? { channel: text(config, 'channel') } : {}),
          attachments: [{ fallback: message.text, color, text: message.incident?.cause ?? message.text, footer: `Incident ${message.incident_id}` }],
        }),
        {},
        context,
        message,
      );
    }
    case 'MATRIX': {
      const room = encodeURIComponent(text(config, 'room_id'));
      const cause = message.incident?.cause;
      return send(
        `${baseOf(config, 'homeserver', '')}/_matrix/client/v3/rooms/${room}/send/m.room.message/${encodeURIComponent(matrixTransactionId(message))}`,
        {
          method: 'PUT',
          body: json({
            msgtype: 'm.text',
            body: message.text,
            format: 'org.matrix.custom.html',
            formatted_body: `<strong>${escapeHtml(message.title)}</strong>${cause ? `<br>${escapeHtml(cause)}` : ''}`,
          }),
          headers: { 'Content-Type': 'application/json', 'User-Agent': 'Vigil-Notifier/0.1', Authorization: `Bearer ${text(config, 'access_token')}` },
          redirect: 'error',
        },
        context,
      );
    }
    case 'GOTIFY':
      // The token goes in X-Gotify-Key, not ?token=, so it stays out of proxies' access logs.
      return post(
        `${baseOf(config, 'server', '')}/message`,
        json({
          title: message.subject,
          message: message.incident?.cause ?? message.text,
          priority: problem(message) ? Number(config['priority'] ?? 8) : 4,
          extras: { 'client::display': { contentType: 'text/plain' } },
        }),
        { 'X-Gotify-Key': text(config, 'token') },
        context,
        message,
      );
    case 'PUSHOVER': {
      const device = optional(config, 'device');
      return post(
        `${baseOf(config, 'api_base', 'https://api.pushover.net')}/1/messages.json`,
        json({
          token: text(config, 'app_token'),
          user: text(config, 'user_key'),
          title: message.subject.slice(0, 250),
          message: (message.incident?.cause || message.text).slice(0, 1024),
          priority: problem(message) ? Number(config['priority'] ?? 1) : 0,
          timestamp: Math.floor(Date.parse(message.occurred_at) / 1000),
          ...(device ? { device } : {}),
        }),
        {},
        context,
        message,
      );
    }
    case 'GOOGLE_CHAT': {
      // Every page of one incident goes to one thread, started by the first.
      const url = new URL(text(config, 'webhook_url'));
      url.searchParams.set('messageReplyOption', 'REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD');
      return post(
        url.toString(),
        json({ text: message.text.slice(0, 4000), thread: { threadKey: message.incident_id } }),
        { 'Content-Type': 'application/json; charset=UTF-8' },
        context,
        message,
      );
    }
    case 'TEMPLATED_WEBHOOK':
      return templatedWebhook(config, message, context);
    case 'EMAIL': {
      if (!context.smtp) throw new DeliveryError('email is not configured on this server (set VIGIL_SMTP_HOST)');
      const transport = nodemailer.createTransport({
        host: context.smtp.host,
        port: context.smtp.port,
        secure: context.smtp.secure,
        ...(context.smtp.user ? { auth: { user: context.smtp.user, pass: context.smtp.password ?? '' } } : {}),
        connectionTimeout: context.timeoutMs,
        greetingTimeout: context.timeoutMs,
        socketTimeout: context.timeoutMs,
      });
      const recipients = Array.isArray(config['to']) ? config['to'].map(String) : [];
      try {
        await transport.sendMail({
          from: context.smtp.from,
          to: recipients,
          subject: message.subject,
          text: `${message.text}\n\nIncident ${message.incident_id}\n`,
          headers: { 'X-Vigil-Idempotency-Key': message.idempotency_key },
        });
      } catch (error) {
        throw new DeliveryError(`the SMTP server ${context.smtp.host} refused the message${(error as { responseCode?: number }).responseCode ? ` (${(error as { responseCode?: number }).responseCode})` : ''}`);
      } finally {
        transport.close();
      }
      return;
    }
    default: {
      const exhaustive: never = type;
      return exhaustive;
    }
  }
}
