/**
 * VIGIL_PRIVATE_TARGETS: which outbound requests may reach private, loopback and link-local addresses.
 * - `deny`: none (multi-tenant deployments: no tenant may make Vigil probe its network);
 * - `checks` (default): uptime checks and the check tools may, since self-hosters watch internal
 *   services; notification deliveries may not, so a channel URL cannot be aimed at the network;
 * - `allow`: all of them.
 */
export const PRIVATE_TARGETS = ['deny', 'checks', 'allow'] as const;
export type PrivateTargets = (typeof PRIVATE_TARGETS)[number];

/** What an outbound request is for; the policy treats checks and deliveries differently. */
export type OutboundPurpose = 'check' | 'delivery';

export function allowsPrivate(policy: PrivateTargets, purpose: OutboundPurpose): boolean {
  return policy === 'allow' || (policy === 'checks' && purpose === 'check');
}
