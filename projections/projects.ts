import type { Projection } from '../src/projector/projection.js';
import { type AutoProvisioning, AUTO_PROVISIONING_DEFAULTS } from '../src/domain/projects/auto-provisioning.js';

export interface ProjectDocument {
  [key: string]: unknown;
  id: string;
  name: string;
  description: string;
  owner_id: string;
  ping_key: string;
  auto_provisioning: AutoProvisioning;
  created_at: string;
  updated_at: string;
}

export const projectsProjection: Projection<ProjectDocument> = {
  name: 'projects',
  version: 2,
  // ping_key finds the project of a slug ping.
  collection: { name: 'projects', indexes: [{ fields: ['id'] }, { fields: ['ping_key'] }] },
  handles: ['ProjectCreated', 'ProjectUpdated', 'ProjectPingKeyRotated', 'ProjectAutoProvisioningConfigured', 'ProjectDeleted'],
  targets(event) {
    switch (event.type) {
      case 'ProjectCreated':
      case 'ProjectUpdated':
      case 'ProjectPingKeyRotated':
      case 'ProjectAutoProvisioningConfigured':
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
        return { id: project_id, name, description, owner_id, ping_key, auto_provisioning: AUTO_PROVISIONING_DEFAULTS, created_at, updated_at: created_at };
      }
      case 'ProjectUpdated':
        return doc && { ...doc, name: event.data.name, description: event.data.description, updated_at: event.data.updated_at };
      case 'ProjectPingKeyRotated':
        return doc && { ...doc, ping_key: event.data.ping_key, updated_at: event.data.rotated_at };
      case 'ProjectAutoProvisioningConfigured':
        return doc && { ...doc, auto_provisioning: event.data.auto_provisioning, updated_at: event.data.configured_at };
      case 'ProjectDeleted':
        return null;
      default:
        return doc;
    }
  },
};
