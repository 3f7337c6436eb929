import { createHash } from 'node:crypto';
import { type PeerTool, peerAliasDecider, peerAliasStream } from '../domain/peers/peer-alias.js';
import { type PeerAliasDocument, peerAliasId } from '../../projections/peer-aliases.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';
import { type Actor, handleCommand } from './command-handler.js';
import { type CommandContext, nowIso } from './context.js';

/** An alias as it is stored: SHA-256, hex. A Kuma token is case-sensitive; a UUID is compared in lower case. */
export function aliasHash(peer: PeerTool, alias: string): string {
  return createHash('sha256').update(peer === 'healthchecks' ? alias.toLowerCase() : alias).digest('hex');
}

/** Records that `alias`, the monitor's ping URL in `peer`, now reaches the monitor. */
export async function claimPeerAlias(context: CommandContext, input: { peer: PeerTool; alias: string; project_id: string; monitor_id: string }, actor: Actor) {
  const alias_hash = aliasHash(input.peer, input.alias);
  return handleCommand(
    context,
    peerAliasStream(input.peer, alias_hash),
    peerAliasDecider,
    { type: 'ClaimPeerAlias', peer: input.peer, alias_hash, project_id: input.project_id, monitor_id: input.monitor_id, now: nowIso(context) },
    actor,
  );
}

/** The monitor an imported ping URL reaches, or null. */
export async function monitorByPeerAlias(readModels: ReadModelStore, peer: PeerTool, alias: string): Promise<string | null> {
  return (await readModels.get<PeerAliasDocument>('peer_aliases', peerAliasId(peer, aliasHash(peer, alias))))?.doc.monitor_id ?? null;
}

/** The tools whose old ping URLs reach this monitor. */
export async function peerAliasesOf(readModels: ReadModelStore, monitorId: string): Promise<PeerTool[]> {
  const found = await readModels.find<PeerAliasDocument>('peer_aliases', { monitor_id: monitorId });
  return [...new Set(found.map((s) => s.doc.peer))].sort();
}
