import type { PeerTool } from '../src/domain/peers/peer-alias.js';
import type { Projection, Target } from '../src/projector/projection.js';

/**
 * The ping URLs imported monitors had in another tool (see src/domain/peers/peer-alias.ts), by
 * `<peer>:<hash of the alias>`: what a Healthchecks or Uptime Kuma ping URL is looked up by when
 * it names no monitor id. A deleted monitor's alias stays and names nothing, as its id does.
 */
export interface PeerAliasDocument {
  [key: string]: unknown;
  id: string;
  peer: PeerTool;
  project_id: string;
  monitor_id: string;
}

export const peerAliasId = (peer: PeerTool, aliasHash: string) => `${peer}:${aliasHash}`;

export const peerAliasesProjection: Projection<PeerAliasDocument> = {
  name: 'peer_aliases',
  version: 1,
  collection: { name: 'peer_aliases', indexes: [{ fields: ['monitor_id'] }, { fields: ['project_id'] }] },
  handles: ['PeerAliasClaimed', 'ProjectDeleted'],
  targets(event): Target {
    switch (event.type) {
      case 'PeerAliasClaimed':
        return { ids: [peerAliasId(event.data.peer, event.data.alias_hash)] };
      case 'ProjectDeleted':
        return { where: { project_id: event.data.project_id } };
      default:
        return { ids: [] };
    }
  },
  apply(_doc, event, id) {
    if (event.type !== 'PeerAliasClaimed') return null;
    return { id, peer: event.data.peer, project_id: event.data.project_id, monitor_id: event.data.monitor_id };
  },
};
