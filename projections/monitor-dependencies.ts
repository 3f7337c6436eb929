import type { Projection } from '../src/projector/projection.js';

/**
 * The dependencies between a project's monitors, one document per project that has any: what
 * each monitor depends on, keyed by its id. What depends on a monitor (its page, the refusal to
 * delete it) is read here rather than from every monitor of the project.
 */
export interface MonitorDependenciesDocument {
  [key: string]: unknown;
  /** The project's id. */
  id: string;
  project_id: string;
  /** Monitor id to the ids it depends on; a monitor that depends on nothing is absent. */
  edges: Record<string, string[]>;
}

export const monitorDependenciesProjection: Projection<MonitorDependenciesDocument> = {
  name: 'monitor_dependencies',
  version: 1,
  collection: { name: 'monitor_dependencies', indexes: [] },
  handles: ['MonitorCreated', 'MonitorUpdated', 'MonitorDeleted', 'ProjectDeleted'],
  targets: (event) => ({ ids: 'project_id' in event.data && typeof event.data.project_id === 'string' ? [event.data.project_id] : [] }),
  apply(doc, event, id) {
    const edges = { ...(doc?.edges ?? {}) };
    switch (event.type) {
      case 'MonitorCreated':
      case 'MonitorUpdated': {
        const dependsOn = event.data.config.depends_on ?? [];
        if (dependsOn.length === 0 && !(event.data.monitor_id in edges)) return doc;
        if (dependsOn.length > 0) edges[event.data.monitor_id] = dependsOn;
        else delete edges[event.data.monitor_id];
        break;
      }
      // A deleted monitor's streams leave the log: a rebuild never sees its edges either.
      case 'MonitorDeleted':
        if (!(event.data.monitor_id in edges)) return doc;
        delete edges[event.data.monitor_id];
        break;
      case 'ProjectDeleted':
        return null;
      default:
        return doc;
    }
    return Object.keys(edges).length === 0 ? null : { id, project_id: id, edges };
  },
};
