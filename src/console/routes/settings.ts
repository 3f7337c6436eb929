import type { ConsoleKit, ConsoleRoutes } from '../kit.js';
import { readableProject, settingsPath } from './settings-common.js';

/**
 * A project's settings open on its channels. Each tab has a file of its own: channels, groups,
 * API keys, members and the project.
 */
export const settingsRoutes: ConsoleRoutes = (kit: ConsoleKit) => {
  const { router, deps, signedIn } = kit;

  router.get('/projects/:projectId/settings', signedIn, async (ctx) => {
    const project = await readableProject(deps, ctx);
    ctx.status = 303;
    ctx.redirect(settingsPath(project.id, 'channels'));
  });
};
