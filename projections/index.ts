import type { Projection } from '../src/projector/projection.js';
import { apiKeysProjection } from './api-keys.js';
import { checkHoursProjection, latestCheckResultsProjection } from './check-results.js';
import { deadlinesProjection } from './deadlines.js';
import { incidentsProjection } from './incidents.js';
import { monitorsProjection } from './monitors.js';
import { pingsProjection } from './pings.js';
import { projectMembersProjection } from './project-members.js';
import { projectsProjection } from './projects.js';
import { usersProjection } from './users.js';

/** Every read model Vigil serves queries from. */
export function allProjections(): Projection[] {
  return [usersProjection, projectsProjection, projectMembersProjection, apiKeysProjection, monitorsProjection, pingsProjection, incidentsProjection, deadlinesProjection, latestCheckResultsProjection, checkHoursProjection] as Projection[];
}
