import type { Decider, DomainEvent } from '../decider.js';

/**
 * The ping URL a monitor had in another tool, kept when it was imported so that the job pinging it
 * needs only the host changed: a Healthchecks check's UUID, an Uptime Kuma push monitor's token.
 * Each alias is claimed in a stream of its own, named by a hash of it (the alias is as much a
 * secret as a ping key, and is never stored as it is), so it names one monitor on every store.
 */
export type PeerTool = 'healthchecks' | 'uptime_kuma';
export const PEER_TOOLS: readonly PeerTool[] = ['healthchecks', 'uptime_kuma'];

export type PeerAliasEvent = DomainEvent<'PeerAliasClaimed', { peer: PeerTool; alias_hash: string; project_id: string; monitor_id: string; claimed_at: string }>;

export type PeerAliasCommand = { type: 'ClaimPeerAlias'; peer: PeerTool; alias_hash: string; project_id: string; monitor_id: string; now: string };

export interface PeerAliasState {
  monitorId: string | null;
}

export const peerAliasStream = (peer: PeerTool, aliasHash: string) => `peeralias-${peer}-${aliasHash}`;

/**
 * The latest claim wins: an alias is claimed only by an import, which an operator runs, and a
 * second import of the same export (after the first monitor was deleted, or into another project)
 * means the old URL should now reach the monitor just created. Claiming it again for the monitor
 * that holds it records nothing.
 */
export const peerAliasDecider: Decider<PeerAliasCommand, PeerAliasState, PeerAliasEvent> = {
  initialState: () => ({ monitorId: null }),
  evolve(_state, event) {
    return { monitorId: event.data.monitor_id };
  },
  decide(command, state) {
    if (state.monitorId === command.monitor_id) return [];
    const { peer, alias_hash, project_id, monitor_id, now } = command;
    return [{ type: 'PeerAliasClaimed', data: { peer, alias_hash, project_id, monitor_id, claimed_at: now } }];
  },
};
