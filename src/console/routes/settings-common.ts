import type * as t from 'io-ts';
import type { Context } from 'koa';
import type { ProjectDocument } from '../../../projections/projects.js';
import type { ApiDependencies } from '../../web/dependencies.js';
import { HttpError } from '../../web/errors.js';
import { gate } from '../../app/gate.js';
import { decode, pathId } from '../../web/validation.js';
import { getProject } from '../../queries/projects.js';
import type { ConsoleState } from '../kit.js';
import { doneNotice } from '../done-notice.js';

const READ = { scope: 'read' } as const;

/** A number typed into a form, as a number when it is one (the API's codec then says what is wrong with it). */
export const numberOr = (text: string): number | string => (/^-?\d{1,9}$/.test(text.trim()) ? Number(text.trim()) : text);

/** The form's fields as the API's body takes them; what the codec refuses it names as the API would. */
export function formBody<A>(ctx: Context, codec: t.Decoder<unknown, A>): A {
  return decode(codec, ctx.request.body, 'form');
}

/** A form field a browser sends once, or several times (checkboxes of one name), as a list. */
export const asList = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** After a POST: back to `path`, which says once what was done (`done` names one of its page's notices). */
export function redirectDone(ctx: Context, path: string, done: string): void {
  ctx.status = 303;
  ctx.redirect(`${path}?done=${done}`);
}

export const settingsPath = (projectId: string, page: string) => `/projects/${projectId}/settings/${page}`;

/** The project named in the path, once the caller may read it (a 404 otherwise, as the API answers). */
export async function readableProject(deps: ApiDependencies, ctx: Context & { state: ConsoleState; params?: Record<string, string> }): Promise<ProjectDocument> {
  const projectId = pathId(ctx.params?.['projectId'], 'project');
  await gate(deps.readModels, ctx.state.caller, READ, projectId);
  const project = await getProject(deps.readModels, projectId);
  if (!project) throw new HttpError(404, 'project not found');
  ctx.set('Cache-Control', 'no-store');
  return project;
}

/** What every settings page is framed with: the viewer, the project, and what the last POST did. */
export function settingsFrame(ctx: Context & { state: ConsoleState }, project: ProjectDocument, notices: Readonly<Record<string, string>>) {
  return { viewer: ctx.state.viewer, project, notice: doneNotice(ctx, notices) };
}
