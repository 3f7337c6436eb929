import { Refusal } from '../../app/refusal.js';
import * as t from 'io-ts';
import type { Context } from 'koa';
import type { ChannelDocument } from '../../../projections/notification-channels.js';
import type { GroupDocument } from '../../../projections/notification-groups.js';
import type { MemberDocument } from '../../../projections/project-members.js';
import { getUsers } from '../../queries/identity.js';
import type { ProjectDocument } from '../../../projections/projects.js';
import { actorOf } from '../../web/actor.js';
import { CHANNEL_TYPE_SPECS } from '../../web/codecs/channel-configs.js';
import { CreateChannelBody, UpdateChannelBody } from '../../web/codecs/notifications.js';
import { settled, requesterOf } from '../../web/dependencies.js';
import { HttpError } from '../../web/errors.js';
import { gate } from '../../app/gate.js';
import {
  DESTROY as DESTROY_CHANNEL, WRITE as WRITE_NOTIFICATIONS, addChannel, changeChannel, channelTypeUnavailable, sendTestMessage,
} from '../../app/channel-changes.js';
import { decode } from '../../web/validation.js';
import { deleteChannel } from '../../app/notifications.js';
import { CHANNEL_TYPES, type ChannelType } from '../../domain/notifications/channel.js';
import { listMonitors } from '../../queries/monitors.js';
import { formError } from '../channel-guide.js';
import { type ChannelRow, type ChannelTypeInfo, channelCreatedPage, channelFormPage, channelsPage, deleteChannelPage } from '../pages/channels.js';
import type { ConsoleKit, ConsoleRoutes, ConsoleState } from '../kit.js';
import { render } from '../signed-in.js';
import { type SettingsTools, settingsTools } from './settings-tools.js';
import { quietHoursField, quietHoursFromForm, quietHoursValues, quietHoursWords, typedQuietDays } from '../quiet-hours-form.js';
import { channelDependencies } from '../../web/channels.js';

const TypeQuery = t.type({ type: t.keyof(Object.fromEntries(CHANNEL_TYPES.map((c) => [c, null])) as Record<ChannelType, null>) });
const ChannelForm = t.intersection([t.type({ name: t.string }), t.partial({ type: t.string, is_default: t.string, enabled: t.string, owner_user_id: t.string })]);

/** A number typed into a form, as a number when it is one (the API's codec then says what is wrong with it). */
const numberOr = (text: string): number | string => (/^-?\d{1,9}$/.test(text.trim()) ? Number(text.trim()) : text);

/** A config field as typed: headers one `Name: value` a line, lists one entry a line; null when left blank. */
function typedValue(fieldType: string, raw: unknown): unknown {
  if (typeof raw !== 'string' || raw.trim() === '') return null;
  const lines = raw.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
  if (fieldType === 'object') {
    return Object.fromEntries(lines.map((line) => {
      const colon = line.indexOf(':');
      return colon < 0 ? [line, ''] : [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
    }));
  }
  if (fieldType.startsWith('array')) return lines;
  if (fieldType === 'integer') return numberOr(raw);
  return raw.trim();
}

/**
 * A channel's config from the form. Editing, a secret left blank keeps the stored one (unless its
 * "remove" box is ticked); any other field left blank is left out.
 */
function configFromForm(type: ChannelType, form: Record<string, unknown>, stored: Record<string, unknown> | null): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(CHANNEL_TYPE_SPECS[type].schema)) {
    const typed = typedValue(field.type, form[`config_${name}`]);
    if (typed !== null) config[name] = typed;
    else if (stored && field.secret && stored[name] !== undefined && form[`clear_${name}`] === undefined) config[name] = stored[name];
  }
  return config;
}

/** What goes back into a refused form: what was typed, never a password field's value. */
function typedValues(form: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(form).filter((e): e is [string, string] => typeof e[1] === 'string' && e[0] !== 'csrf_token'));
}

/** A stored setting as the edit form shows it: lists and headers one a line, as they are typed. */
function shown(value: unknown): string {
  if (Array.isArray(value)) return value.join('\n');
  if (typeof value === 'object' && value !== null) return Object.entries(value).map(([k, v]) => `${k}: ${String(v)}`).join('\n');
  return String(value);
}

/** Notification channels of a project: list, create, edit, test and delete (`/projects/<id>/settings/channels`). */
export const channelRoutes: ConsoleRoutes = (kit: ConsoleKit) => {
  const { router, deps, signedIn, may, clock } = kit;
  const { readModels, commands, secrets } = deps;
  const channelDeps = channelDependencies(deps);
  const tools: SettingsTools = settingsTools(kit);
  const { readableProject, frame, projectDocument, redirectDone } = tools;

  const typeInfo = (type: ChannelType): ChannelTypeInfo =>
    ({ type, name: CHANNEL_TYPE_SPECS[type].name, schema: CHANNEL_TYPE_SPECS[type].schema, unavailable: channelTypeUnavailable(channelDeps, type) });
  const channelsPath = (projectId: string) => `/projects/${projectId}/settings/channels`;
  /** Whom a channel may belong to: the project's members, by name. */
  async function owners(projectId: string): Promise<{ id: string; name: string }[]> {
    const memberships = (await readModels.find<MemberDocument>('project_members', { project_id: projectId })).map((m) => m.doc.user_id);
    const users = await getUsers(readModels, memberships);
    return [...users.values()].map((u) => ({ id: u.id, name: `${u.first_name} ${u.last_name}`.trim() || u.email })).sort((a, b) => a.name.localeCompare(b.name));
  }

  async function channelsView(ctx: Context & { state: ConsoleState }, project: ProjectDocument) {
    const [channels, groups, canWrite, canDestroy, members] = await Promise.all([
      readModels.find<ChannelDocument>('notification_channels', { project_id: project.id }, { sort: [['created_at', 1]] }),
      readModels.find<GroupDocument>('notification_groups', { project_id: project.id }, { sort: [['created_at', 1]] }),
      may(ctx.state.caller, WRITE_NOTIFICATIONS, project.id),
      may(ctx.state.caller, DESTROY_CHANNEL, project.id),
      owners(project.id),
    ]);
    const names = new Map(members.map((m) => [m.id, m.name]));
    const rows: ChannelRow[] = channels.map(({ doc }) => {
      const config = secrets.openConfig(doc.config_sealed);
      const schema = CHANNEL_TYPE_SPECS[doc.type].schema;
      return {
        channel: doc,
        settings: Object.keys(schema).filter((f) => config[f] !== undefined).map((f) => ({ field: f, value: schema[f]!.secret ? null : shown(config[f]).replace(/\n/g, ', ') })),
        groups: groups.filter((g) => g.doc.channel_ids.includes(doc.id)).map((g) => ({ id: g.doc.id, name: g.doc.name })),
        owner: doc.owner_user_id ? (names.get(doc.owner_user_id) ?? 'A former member') : null,
      };
    });
    return { ...frame(ctx, project), rows, types: CHANNEL_TYPES.map(typeInfo), canWrite, canDestroy, now: clock() };
  }

  router.get('/projects/:projectId/settings/channels', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    render(ctx, channelsPage(await channelsView(ctx, project)));
  });

  router.get('/projects/:projectId/settings/channels/new', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    await gate(readModels, ctx.state.caller, WRITE_NOTIFICATIONS, project.id);
    const { type } = decode(TypeQuery, ctx.query, 'query');
    const info = typeInfo(type);
    if (info.unavailable) throw new HttpError(400, `${info.name} channels are not available on this server: ${info.unavailable}`);
    render(ctx, channelFormPage({ ...frame(ctx, project), type: info, channel: null, values: {}, storedSecrets: [], error: null, owners: await owners(project.id) }));
  });

  /** The form again with the problem in its own words, what was typed, and the field at fault. */
  async function refused(ctx: Context & { state: ConsoleState }, project: ProjectDocument, type: ChannelType, channel: ChannelDocument | null, error: unknown, storedSecrets: string[]) {
    if (!(error instanceof Refusal) || error.status !== 400) throw error;
    const form = ctx.request.body as Record<string, unknown>;
    const values: Record<string, string> = { ...typedValues(form), quiet_days: typedQuietDays(form) };
    for (const key of channel ? ['is_default', 'enabled', 'quiet_enabled'] : ['quiet_enabled']) values[key] ??= '';
    const quietField = quietHoursField(error.message);
    const shownError = quietField ? { field: quietField, message: quietHoursWords(error.message) } : formError(type, error.message);
    render(ctx, channelFormPage({ ...frame(ctx, project), type: typeInfo(type), channel, values, storedSecrets, error: shownError, owners: await owners(project.id) }), 400);
  }

  router.post('/projects/:projectId/settings/channels', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    await gate(readModels, ctx.state.caller, WRITE_NOTIFICATIONS, project.id);
    const form = decode(ChannelForm, ctx.request.body, 'form');
    const { type } = decode(TypeQuery, { type: form.type }, 'form');
    const fields = ctx.request.body as Record<string, unknown>;
    try {
      const body = decode(CreateChannelBody, { name: form.name.trim(), type, config: configFromForm(type, fields, null), ...(form.is_default ? { is_default: true } : {}), quiet_hours: quietHoursFromForm(fields), owner_user_id: form.owner_user_id || null }, 'form');
      const { channelId, generatedSecret } = await addChannel(channelDeps, requesterOf(deps, ctx.state), project.id, body);
      if (generatedSecret) {
        render(ctx, channelCreatedPage({ ...frame(ctx, project), channel: { id: channelId, name: body.name }, signingSecret: generatedSecret }), 201);
        return;
      }
      redirectDone(ctx, channelsPath(project.id), 'channel-created');
    } catch (error) {
      await refused(ctx, project, type, null, error, []);
    }
  });

  const editable = (ctx: Context & { state: ConsoleState }) =>
    projectDocument<ChannelDocument>(ctx, 'notification_channels', 'channelId', 'notification channel', WRITE_NOTIFICATIONS);
  const storedSecretsOf = (channel: ChannelDocument, config: Record<string, unknown>) =>
    Object.entries(CHANNEL_TYPE_SPECS[channel.type].schema).filter(([name, f]) => f.secret && config[name] !== undefined).map(([name]) => name);

  router.get('/projects/:projectId/settings/channels/:channelId/edit', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    const channel = await editable(ctx);
    const config = secrets.openConfig(channel.config_sealed);
    const schema = CHANNEL_TYPE_SPECS[channel.type].schema;
    const values: Record<string, string> = { name: channel.name, is_default: channel.is_default ? 'true' : '', enabled: channel.enabled ? 'true' : '', owner_user_id: channel.owner_user_id ?? '', ...quietHoursValues(channel.quiet_hours ?? null) };
    for (const [name, f] of Object.entries(schema)) if (!f.secret && config[name] !== undefined) values[`config_${name}`] = shown(config[name]);
    render(ctx, channelFormPage({ ...frame(ctx, project), type: typeInfo(channel.type), channel, values, storedSecrets: storedSecretsOf(channel, config), error: null, owners: await owners(project.id) }));
  });

  router.post('/projects/:projectId/settings/channels/:channelId', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    const channel = await editable(ctx);
    const stored = secrets.openConfig(channel.config_sealed);
    const form = decode(ChannelForm, ctx.request.body, 'form');
    try {
      const body = decode(UpdateChannelBody, {
        name: form.name.trim(), config: configFromForm(channel.type, ctx.request.body as Record<string, unknown>, stored),
        is_default: form.is_default !== undefined, enabled: form.enabled !== undefined, quiet_hours: quietHoursFromForm(ctx.request.body as Record<string, unknown>), owner_user_id: form.owner_user_id || null,
      }, 'form');
      await changeChannel(channelDeps, requesterOf(deps, ctx.state), channel, body);
      redirectDone(ctx, channelsPath(project.id), 'channel-saved');
    } catch (error) {
      await refused(ctx, project, channel.type, channel, error, storedSecretsOf(channel, stored));
    }
  });

  router.post('/projects/:projectId/settings/channels/:channelId/test', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    const channel = await editable(ctx);
    const outcome = await sendTestMessage(channelDeps, channel);
    // The outcome is this answer's alone: a reload asks before sending another.
    const view = await channelsView(ctx, project);
    render(ctx, channelsPage(outcome.delivered
      ? { ...view, notice: `Test message delivered to ${channel.name}.` }
      : { ...view, notice: null, problem: `The test message to ${channel.name} was not delivered: ${outcome.error ?? 'delivery failed'}` }));
  });

  const destroyable = (ctx: Context & { state: ConsoleState }) =>
    projectDocument<ChannelDocument>(ctx, 'notification_channels', 'channelId', 'notification channel', DESTROY_CHANNEL);

  router.get('/projects/:projectId/settings/channels/:channelId/delete', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    const channel = await destroyable(ctx);
    const [groups, monitors] = await Promise.all([
      readModels.find<GroupDocument>('notification_groups', { project_id: project.id }, { sort: [['created_at', 1]] }),
      listMonitors(readModels, project.id),
    ]);
    const brief = (m: { id: string; name: string }) => ({ id: m.id, name: m.name });
    render(ctx, deleteChannelPage({
      ...frame(ctx, project),
      channel,
      groups: groups.filter((g) => g.doc.channel_ids.includes(channel.id)).map(({ doc: g }) => ({ id: g.id, name: g.name, monitors: monitors.filter((m) => m.notification_group_ids.includes(g.id)).map(brief) })),
      monitors: monitors.filter((m) => m.notification_channel_ids.includes(channel.id)).map(brief),
    }));
  });

  router.post('/projects/:projectId/settings/channels/:channelId/delete', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    const channel = await destroyable(ctx);
    await settled(deps, await deleteChannel(commands, readModels, channel.id, channel.project_id, actorOf(ctx.state)));
    redirectDone(ctx, channelsPath(project.id), 'channel-deleted');
  });
};
