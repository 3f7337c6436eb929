import type { Context } from 'koa';
import type { ProjectDocument } from '../../../projections/projects.js';
import { HttpError } from '../../web/errors.js';
import { gate } from '../../app/gate.js';
import { gatedDocument } from '../../web/monitor-access.js';
import { pathId } from '../../web/validation.js';
import { getProject } from '../../queries/projects.js';
import type { ConsoleKit, ConsoleState } from '../kit.js';
import { doneNotice } from '../done-notice.js';

const READ = { scope: 'read' } as const;

/** What each channel, group and project POST did, shown once on the page it returns to. */
export const DONE = {
  'channel-created': 'Channel created.',
  'channel-saved': 'Channel saved.',
  'channel-deleted': 'Channel deleted.',
  'group-created': 'Group created.',
  'group-saved': 'Group saved.',
  'group-deleted': 'Group deleted.',
  'project-created': 'Project created. You are its owner.',
  'project-saved': 'Project saved.',
} as const;

type Ctx = Context & { state: ConsoleState; params?: Record<string, string> };

/** The steps every settings page and POST share: the project read, the frame, a document of the project, the redirect. */
export function settingsTools(kit: ConsoleKit) {
  const { readModels } = kit.deps;

  async function readableProject(ctx: Ctx): Promise<ProjectDocument> {
    const projectId = pathId(ctx.params?.['projectId'], 'project');
    await gate(readModels, ctx.state.caller, READ, projectId);
    const project = await getProject(readModels, projectId);
    if (!project) throw new HttpError(404, 'project not found');
    ctx.set('Cache-Control', 'no-store');
    return project;
  }

  const frame = (ctx: Ctx, project: ProjectDocument) => ({ viewer: ctx.state.viewer, project, notice: doneNotice(ctx, DONE) });

  /** A channel or group named in the path, of this project, after the same gate as its REST route. */
  async function projectDocument<D extends { project_id: string }>(ctx: Ctx, collection: string, param: string, resource: string, requirement: Parameters<typeof gate>[2]): Promise<D> {
    const projectId = pathId(ctx.params?.['projectId'], 'project');
    const doc = await gatedDocument<D>(readModels, ctx.state, collection, ctx.params?.[param], resource, requirement);
    if (doc.project_id !== projectId) throw new HttpError(404, `${resource} not found`);
    return doc;
  }

  function redirectDone(ctx: Context, path: string, done: keyof typeof DONE): void {
    ctx.status = 303;
    ctx.redirect(`${path}?done=${done}`);
  }

  return { readableProject, frame, projectDocument, redirectDone };
}

export type SettingsTools = ReturnType<typeof settingsTools>;
