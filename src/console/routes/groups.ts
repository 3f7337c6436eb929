import { Refusal } from '../../app/refusal.js';
import * as t from 'io-ts';
import type { Context } from 'koa';
import type { ChannelDocument } from '../../../projections/notification-channels.js';
import type { GroupDocument } from '../../../projections/notification-groups.js';
import type { ProjectDocument } from '../../../projections/projects.js';
import { actorOf } from '../../web/actor.js';
import { CreateGroupBody, UpdateGroupBody } from '../../web/codecs/notifications.js';
import { settled } from '../../web/dependencies.js';
import { gate } from '../../app/gate.js';
import { MANAGE as MANAGE_MONITORS } from '../../app/monitor-rules.js';
import { DESTROY, WRITE as WRITE_NOTIFICATIONS } from '../../app/channel-changes.js';
import { decode } from '../../web/validation.js';
import { updateMonitor } from '../../app/monitors.js';
import { attachChannel, createGroup, deleteGroup, detachChannel, updateGroup } from '../../app/notifications.js';
import { listMonitors } from '../../queries/monitors.js';
import { deleteGroupPage, groupPage, groupsPage } from '../pages/groups.js';
import type { ConsoleKit, ConsoleRoutes, ConsoleState } from '../kit.js';
import { render } from '../signed-in.js';
import { settingsTools } from './settings-tools.js';

const READ = { scope: 'read' } as const;
const Repeated = t.union([t.string, t.array(t.string)]);
const GroupForm = t.intersection([t.type({ name: t.string }), t.partial({ description: t.string, is_default: t.string, channel: Repeated })]);
const MonitorsForm = t.partial({ monitor: Repeated });
const asList = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

type Ctx = Context & { state: ConsoleState };

/** A refusal of the group form in its own words ("Group name", not `name`). */
function refusal(error: unknown, form: { name: string; description?: string | undefined }) {
  if (!(error instanceof Refusal) || error.status !== 400) throw error;
  const field = /^name\b/.test(error.message) ? 'name' : /^description\b/.test(error.message) ? 'description' : null;
  const message = error.message.replace(/^name\b/, 'Group name').replace(/^description\b/, 'Description');
  return { error: message, field, name: form.name, description: form.description ?? '' } as const;
}

/**
 * Notification groups of a project (`/projects/<id>/settings/groups`): create, rename, choose
 * channels, route monitors (through the same monitor update as `PATCH /v1/monitors/<id>`), delete.
 */
export const groupRoutes: ConsoleRoutes = (kit: ConsoleKit) => {
  const { router, deps, signedIn, may } = kit;
  const { readModels, commands } = deps;
  const { readableProject, frame, projectDocument, redirectDone } = settingsTools(kit);
  const groupsPath = (projectId: string) => `/projects/${projectId}/settings/groups`;

  async function listView(ctx: Ctx, project: ProjectDocument, refused: Parameters<typeof groupsPage>[0]['refused']) {
    const [groups, channels, monitors, canWrite] = await Promise.all([
      readModels.find<GroupDocument>('notification_groups', { project_id: project.id }, { sort: [['created_at', 1]] }),
      readModels.find<ChannelDocument>('notification_channels', { project_id: project.id }, { sort: [['created_at', 1]] }),
      listMonitors(readModels, project.id),
      may(ctx.state.caller, WRITE_NOTIFICATIONS, project.id),
    ]);
    return groupsPage({
      ...frame(ctx, project), canWrite, refused,
      groups: groups.map(({ doc: group }) => ({
        group,
        channels: channels.filter((c) => group.channel_ids.includes(c.doc.id)).map((c) => ({ id: c.doc.id, name: c.doc.name })),
        monitors: monitors.filter((m) => m.notification_group_ids.includes(group.id)).map((m) => ({ id: m.id, name: m.name })),
      })),
    });
  }

  router.get('/projects/:projectId/settings/groups', signedIn, async (ctx) => {
    render(ctx, await listView(ctx, await readableProject(ctx), null));
  });

  router.post('/projects/:projectId/settings/groups', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    await gate(readModels, ctx.state.caller, WRITE_NOTIFICATIONS, project.id);
    const form = decode(GroupForm, ctx.request.body, 'form');
    let groupId: string;
    try {
      const body = decode(CreateGroupBody, { name: form.name.trim(), description: (form.description ?? '').trim() }, 'form');
      const created = await createGroup(commands, { project_id: project.id, settings: { name: body.name, description: body.description ?? '', is_default: false } }, actorOf(ctx.state));
      await settled(deps, created.position);
      groupId = created.groupId;
    } catch (error) {
      render(ctx, await listView(ctx, project, refusal(error, form)), 400);
      return;
    }
    redirectDone(ctx, `${groupsPath(project.id)}/${groupId}`, 'group-created');
  });

  const groupOf = (ctx: Ctx, requirement: Parameters<typeof gate>[2]) =>
    projectDocument<GroupDocument>(ctx, 'notification_groups', 'groupId', 'notification group', requirement);

  async function show(ctx: Ctx, project: ProjectDocument, group: GroupDocument, refused: Parameters<typeof groupPage>[0]['refused']) {
    const [channels, monitors, canWrite, canRoute, canDestroy] = await Promise.all([
      readModels.find<ChannelDocument>('notification_channels', { project_id: project.id }, { sort: [['created_at', 1]] }),
      listMonitors(readModels, project.id),
      may(ctx.state.caller, WRITE_NOTIFICATIONS, project.id),
      may(ctx.state.caller, MANAGE_MONITORS, project.id),
      may(ctx.state.caller, DESTROY, project.id),
    ]);
    render(ctx, groupPage({
      ...frame(ctx, project), group, canWrite, canRoute, canDestroy, refused,
      channels: channels.map((c) => c.doc),
      monitors: monitors.sort((a, b) => a.name.localeCompare(b.name)).map((m) => ({ id: m.id, name: m.name, routed: m.notification_group_ids.includes(group.id) })),
    }), refused ? 400 : 200);
  }

  router.get('/projects/:projectId/settings/groups/:groupId', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    await show(ctx, project, await groupOf(ctx, READ), null);
  });

  router.post('/projects/:projectId/settings/groups/:groupId', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    const group = await groupOf(ctx, WRITE_NOTIFICATIONS);
    const form = decode(GroupForm, ctx.request.body, 'form');
    const actor = actorOf(ctx.state);
    let body: t.TypeOf<typeof UpdateGroupBody>;
    try {
      body = decode(UpdateGroupBody, { name: form.name.trim(), description: (form.description ?? '').trim(), is_default: form.is_default !== undefined }, 'form');
    } catch (error) {
      await show(ctx, project, group, refusal(error, form));
      return;
    }
    // Only this project's channels are offered; an id from elsewhere is ignored rather than attached.
    const own = new Set((await readModels.find<ChannelDocument>('notification_channels', { project_id: project.id })).map((c) => c.doc.id));
    const wanted = new Set(asList(form.channel).filter((id) => own.has(id)));
    let position = (await updateGroup(commands, group.id, body, actor)).position;
    for (const id of wanted) if (!group.channel_ids.includes(id)) position = (await attachChannel(commands, group.id, id, actor)).position ?? position;
    for (const id of group.channel_ids) if (!wanted.has(id)) position = (await detachChannel(commands, group.id, id, actor)).position ?? position;
    await settled(deps, position);
    redirectDone(ctx, `${groupsPath(project.id)}/${group.id}`, 'group-saved');
  });

  router.post('/projects/:projectId/settings/groups/:groupId/monitors', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    const group = await groupOf(ctx, READ);
    // As a monitor PATCH of notification_group_ids: the monitor's MANAGE rule.
    await gate(readModels, ctx.state.caller, MANAGE_MONITORS, project.id);
    const wanted = new Set(asList(decode(MonitorsForm, ctx.request.body, 'form').monitor));
    let position: number | null = null;
    for (const monitor of await listMonitors(readModels, project.id)) {
      const routed = monitor.notification_group_ids.includes(group.id);
      if (routed === wanted.has(monitor.id)) continue;
      const ids = routed ? monitor.notification_group_ids.filter((id) => id !== group.id) : [...monitor.notification_group_ids, group.id];
      position = (await updateMonitor(commands, monitor.id, { notification_group_ids: ids }, actorOf(ctx.state))).position ?? position;
    }
    await settled(deps, position);
    redirectDone(ctx, `${groupsPath(project.id)}/${group.id}`, 'group-saved');
  });

  router.get('/projects/:projectId/settings/groups/:groupId/delete', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    const group = await groupOf(ctx, DESTROY);
    const [channels, monitors] = await Promise.all([
      readModels.find<ChannelDocument>('notification_channels', { project_id: project.id }),
      listMonitors(readModels, project.id),
    ]);
    render(ctx, deleteGroupPage({
      ...frame(ctx, project), group,
      channels: channels.filter((c) => group.channel_ids.includes(c.doc.id)).map((c) => ({ id: c.doc.id, name: c.doc.name })),
      monitors: monitors.filter((m) => m.notification_group_ids.includes(group.id)).map((m) => ({ id: m.id, name: m.name })),
    }));
  });

  router.post('/projects/:projectId/settings/groups/:groupId/delete', signedIn, async (ctx) => {
    const project = await readableProject(ctx);
    const group = await groupOf(ctx, DESTROY);
    await settled(deps, await deleteGroup(commands, readModels, group.id, group.project_id, actorOf(ctx.state)));
    redirectDone(ctx, groupsPath(project.id), 'group-deleted');
  });
};
