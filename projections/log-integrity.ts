import type { LogIntegrityCheck } from '../src/domain/audit/log-integrity.js';
import type { Projection } from '../src/projector/projection.js';

export interface LogIntegrityDocument extends LogIntegrityCheck {
  [key: string]: unknown;
  id: string;
  /** Where the check was recorded in the log. */
  position: number;
}

/** The document `latest`: the last check run with `vigil verify`, by the operator; every project's audit page shows it. */
export const LATEST_CHECK = 'latest';

/** The last check run from the console's audit page of a project: that page shows it, no other does. */
export const projectCheckId = (projectId: string) => `project-${projectId}`;

/**
 * The last check of the log's hash chain for each audience: the operator's (the CLI) for every
 * project, and each project's own from its audit page. Version 1 kept one document, the last check
 * from anywhere, so a project's page showed who verified from another project's (their email).
 */
export const logIntegrityProjection: Projection<LogIntegrityDocument> = {
  name: 'log_integrity',
  version: 2,
  collection: { name: 'log_integrity', indexes: [] },
  handles: ['LogIntegrityChecked'],
  targets(event) {
    if (event.type !== 'LogIntegrityChecked') return {};
    if (event.data.checked_by === 'cli') return { ids: [LATEST_CHECK] };
    // A console check from before checks named their project is no page's to show.
    return { ids: event.data.project_id === null ? [] : [projectCheckId(event.data.project_id)] };
  },
  apply(doc, event, id) {
    return event.type === 'LogIntegrityChecked' ? { ...event.data, id, position: event.position } : doc;
  },
};
