import type { StatusPageMonitor } from '../src/domain/status-pages/status-page.js';
import type { Projection } from '../src/projector/projection.js';

export interface StatusPageDocument {
  [key: string]: unknown;
  id: string;
  project_id: string;
  slug: string;
  title: string;
  description: string;
  published: boolean;
  monitors: StatusPageMonitor[];
  created_at: string;
  updated_at: string;
}

export const statusPagesProjection: Projection<StatusPageDocument> = {
  name: 'status_pages',
  version: 1,
  // slug: how the public page finds its document.
  collection: { name: 'status_pages', indexes: [{ fields: ['project_id', 'created_at'] }, { fields: ['slug'] }] },
  handles: ['StatusPageCreated', 'StatusPageUpdated', 'StatusPageDeleted', 'ProjectDeleted'],
  targets(event) {
    switch (event.type) {
      case 'StatusPageCreated':
      case 'StatusPageUpdated':
      case 'StatusPageDeleted':
        return { ids: [event.data.status_page_id] };
      case 'ProjectDeleted':
        return { where: { project_id: event.data.project_id } };
      default:
        return { ids: [] };
    }
  },
  apply(doc, event) {
    switch (event.type) {
      case 'StatusPageCreated': {
        const { status_page_id, project_id, slug, title, description, published, monitors, created_at } = event.data;
        return { id: status_page_id, project_id, slug, title, description, published, monitors, created_at, updated_at: created_at };
      }
      case 'StatusPageUpdated': {
        const { slug, title, description, published, monitors, updated_at } = event.data;
        return doc && { ...doc, slug, title, description, published, monitors, updated_at };
      }
      case 'StatusPageDeleted':
      case 'ProjectDeleted':
        return null;
      default:
        return doc;
    }
  },
};
