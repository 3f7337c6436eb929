import type { Projection } from '../src/projector/projection.js';

export interface ProjectDocument {
  [key: string]: string;
  id: string;
  name: string;
  description: string;
  owner_id: string;
  ping_key: string;
  created_at: string;
  updated_at: string;
}

export const projectsProjection: Projection<ProjectDocument> = {
  name: 'projects',
  version: 1,
  // ping_key finds the project of a slug ping.
  collection: { name: 'projects', indexes: [{ fields: ['id'] }, { fields: ['ping_key'] }] },
  handles: ['ProjectCreated', 'ProjectUpdated', 'ProjectPingKeyRotated', 'ProjectDeleted'],
  targets(event) {
    switch (event.type) {
      case 'ProjectCreated':
      case 'ProjectUpdated':
      case 'ProjectPingKeyRotated':
      case 'ProjectDeleted':
        return { ids: [event.data.project_id] };
      default:
        return { ids: [] };
    }
  },
  apply(doc, event) {
    switch (event.type) {
      case 'ProjectCreated': {
        const { project_id, name, description, owner_id, ping_key, created_at } = event.data;
        return { id: project_id, name, description, owner_id, ping_key, created_at, updated_at: created_at };
      }
      case 'ProjectUpdated':
        return doc && { ...doc, name: event.data.name, description: event.data.description, updated_at: event.data.updated_at };
      case 'ProjectPingKeyRotated':
        return doc && { ...doc, ping_key: event.data.ping_key, updated_at: event.data.rotated_at };
      case 'ProjectDeleted':
        return null;
      default:
        return doc;
    }
  },
};
