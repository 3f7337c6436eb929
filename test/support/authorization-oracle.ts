import type { Scope } from '../../src/domain/access/scopes.js';

/**
 * Who may call what, written from the API contract (docs/api.md: "Authentication: keys, scopes and
 * roles", "Errors" and the access column of "Endpoints"), on its own: nothing here calls or
 * imports the implementation's gates, so a wrong gate cannot agree with itself.
 */

export type MatrixRole = 'OWNER' | 'MANAGER' | 'MEMBER' | 'READONLY';

/** An account key with the scopes chosen at its creation, or a project key bound to the target or to another project. */
export type KeyUnderTest = { kind: 'account'; scopes: readonly Scope[] } | { kind: 'project'; bound: 'target' | 'elsewhere' };

/** The caller as the rules see it: its key, and its role on the project the request is about (null: none there). */
export interface CallerOnTarget {
  key: KeyUnderTest;
  role: MatrixRole | null;
}

export type Rule =
  /** Scope gate, then the project must be visible to the key, then the role gate. */
  | { gates: 'project'; scope: Scope; accountKeyOnly?: true; minimumRole?: MatrixRole }
  /** No project involved: the scope gate alone. */
  | { gates: 'key'; scope: Scope; accountKeyOnly?: true }
  /** A key never mints a key with more power than itself (docs/api.md, "Keys minting keys"). */
  | { gates: 'mint account key'; scopes: readonly Scope[] }
  /** ...and project keys are minted by the project's Owners and Managers, on a project the key can see. */
  | { gates: 'mint project key' }
  /**
   * A key revokes a key of its own user with no more power than itself; anything else is not there.
   * Power, not role (the operation list: "at least its power"; docs/api.md: "no more power than
   * itself"): giving up a key of one's own is never an escalation.
   */
  | { gates: 'revoke own key'; of: 'account key [read]' | 'project key on the target' }
  | { gates: "revoke another user's key" };

export type Outcome =
  | { status: 200 | 201 | 204 }
  | { status: 403; code: 'INSUFFICIENT_API_KEY_SCOPE' | null }
  | { status: 404 };

const SCOPE_DENIED: Outcome = { status: 403, code: 'INSUFFICIENT_API_KEY_SCOPE' };
const ROLE_DENIED: Outcome = { status: 403, code: null };
const NOT_THERE: Outcome = { status: 404 };
const RANK: Record<MatrixRole, number> = { READONLY: 0, MEMBER: 1, MANAGER: 2, OWNER: 3 };

const READ: Rule = { gates: 'project', scope: 'read' };
const CREATE_MONITORS: Rule = { gates: 'project', scope: 'manage_monitors', minimumRole: 'MEMBER' };
const MANAGE_MONITORS: Rule = { gates: 'project', scope: 'manage_monitors', minimumRole: 'MANAGER' };
const ACT_ON_INCIDENTS: Rule = { gates: 'project', scope: 'manage_monitors', minimumRole: 'MEMBER' };
const MANAGE_PROJECT: Rule = { gates: 'project', scope: 'manage_projects', accountKeyOnly: true, minimumRole: 'MANAGER' };
const MANAGE_NOTIFICATIONS: Rule = { gates: 'project', scope: 'manage_notifications', accountKeyOnly: true, minimumRole: 'MANAGER' };
const DESTROY: Rule = { gates: 'project', scope: 'destroy', accountKeyOnly: true, minimumRole: 'OWNER' };
const ANY_KEY: Rule = { gates: 'key', scope: 'read' };

/**
 * Every authenticated operation, as `METHOD path`, with a `(variant)` where one route answers to
 * different rules depending on its body or target (minting and revoking keys).
 */
export const RULES: Readonly<Record<string, Rule>> = {
  // docs/api.md "Projects": updating, rotating the ping key and members need an account key, manage_projects and MANAGER.
  'GET /v1/projects': ANY_KEY,
  'POST /v1/projects': { gates: 'key', scope: 'manage_projects', accountKeyOnly: true },
  'GET /v1/projects/:projectId': READ,
  'PATCH /v1/projects/:projectId': MANAGE_PROJECT,
  'DELETE /v1/projects/:projectId': DESTROY,
  'POST /v1/projects/:projectId/ping-key/rotate': MANAGE_PROJECT,
  'POST /v1/projects/:projectId/members': MANAGE_PROJECT,
  'PATCH /v1/projects/:projectId/members/:userId': MANAGE_PROJECT,
  'DELETE /v1/projects/:projectId/members/:userId': MANAGE_PROJECT,
  'GET /v1/projects/:projectId/events': READ,
  'GET /v1/projects/:projectId/uptime-summary': READ,
  // docs/api.md "Invitations": issuing, listing and revoking are member management; accepting needs any account key.
  'GET /v1/projects/:projectId/invitations': MANAGE_PROJECT,
  'POST /v1/projects/:projectId/invitations': MANAGE_PROJECT,
  'DELETE /v1/projects/:projectId/invitations/:invitationId': MANAGE_PROJECT,
  'POST /v1/invitations/accept': { gates: 'key', scope: 'read', accountKeyOnly: true },

  // docs/api.md "API keys" and "Keys minting keys" are the rule.
  'GET /v1/api-keys': ANY_KEY,
  'POST /v1/api-keys (account key)': { gates: 'mint account key', scopes: ['manage_monitors'] },
  'POST /v1/api-keys (project key)': { gates: 'mint project key' },
  'DELETE /v1/api-keys/:apiKeyId (own account key)': { gates: 'revoke own key', of: 'account key [read]' },
  'DELETE /v1/api-keys/:apiKeyId (own project key)': { gates: 'revoke own key', of: 'project key on the target' },
  "DELETE /v1/api-keys/:apiKeyId (another user's key)": { gates: "revoke another user's key" },

  // docs/api.md "Monitors": create needs MEMBER; update, delete, pause and resume need MANAGER.
  'GET /v1/monitors': READ,
  'POST /v1/monitors': CREATE_MONITORS,
  'GET /v1/monitors/:monitorId': READ,
  'PATCH /v1/monitors/:monitorId': MANAGE_MONITORS,
  'DELETE /v1/monitors/:monitorId': MANAGE_MONITORS,
  'POST /v1/monitors/:monitorId/pause': MANAGE_MONITORS,
  'POST /v1/monitors/:monitorId/resume': MANAGE_MONITORS,
  'GET /v1/monitors/:monitorId/incidents': READ,
  'GET /v1/monitors/:monitorId/pings': READ,
  'GET /v1/monitors/:monitorId/pings/:pingId': READ,
  'GET /v1/monitors/:monitorId/schedule': READ,
  'GET /v1/monitors/:monitorId/warnings': READ,
  'GET /v1/monitors/:monitorId/events': READ,
  'GET /v1/monitors/:monitorId/check-results/latest': READ,
  'GET /v1/monitors/:monitorId/response-time-stats': READ,

  // docs/api.md "Incidents" and the incident state table (MEMBER or higher acknowledges and resolves).
  'GET /v1/incidents': READ,
  'GET /v1/incidents/:incidentId': READ,
  'GET /v1/incidents/:incidentId/timeline': READ,
  'POST /v1/incidents/:incidentId/acknowledge': ACT_ON_INCIDENTS,
  'POST /v1/incidents/:incidentId/resolve': ACT_ON_INCIDENTS,
  'GET /v1/incidents/:incidentId/notes': READ,
  'POST /v1/incidents/:incidentId/notes': ACT_ON_INCIDENTS,

  // docs/api.md "Notification channels and groups": any key reads; writes need an account key,
  // manage_notifications and MANAGER; deletes need destroy and OWNER.
  'GET /v1/notification-channels/types': ANY_KEY,
  'GET /v1/notification-channels': READ,
  'POST /v1/notification-channels': MANAGE_NOTIFICATIONS,
  'GET /v1/notification-channels/:channelId': READ,
  'PATCH /v1/notification-channels/:channelId': MANAGE_NOTIFICATIONS,
  'DELETE /v1/notification-channels/:channelId': DESTROY,
  'POST /v1/notification-channels/:channelId/test': MANAGE_NOTIFICATIONS,
  'GET /v1/notification-groups': READ,
  'POST /v1/notification-groups': MANAGE_NOTIFICATIONS,
  'GET /v1/notification-groups/:groupId': READ,
  'PATCH /v1/notification-groups/:groupId': MANAGE_NOTIFICATIONS,
  'DELETE /v1/notification-groups/:groupId': DESTROY,
  'GET /v1/notification-groups/:groupId/channels': READ,
  'POST /v1/notification-groups/:groupId/channels': MANAGE_NOTIFICATIONS,
  'DELETE /v1/notification-groups/:groupId/channels/:channelId': MANAGE_NOTIFICATIONS,
  'GET /v1/on-call-schedules': READ,
  'POST /v1/on-call-schedules': MANAGE_NOTIFICATIONS,
  'GET /v1/on-call-schedules/:scheduleId': READ,
  'PATCH /v1/on-call-schedules/:scheduleId': MANAGE_NOTIFICATIONS,
  'DELETE /v1/on-call-schedules/:scheduleId': DESTROY,
  'GET /v1/escalation-policies': READ,
  'POST /v1/escalation-policies': MANAGE_NOTIFICATIONS,
  'GET /v1/escalation-policies/:policyId': READ,
  'PATCH /v1/escalation-policies/:policyId': MANAGE_NOTIFICATIONS,
  'DELETE /v1/escalation-policies/:policyId': DESTROY,

  // docs/api.md "Status pages and badges": reading needs read; managing needs manage_monitors and MANAGER, as changing a monitor.
  'GET /v1/projects/:projectId/status-pages': READ,
  'POST /v1/projects/:projectId/status-pages': MANAGE_MONITORS,
  'GET /v1/status-pages/:statusPageId': READ,
  'PATCH /v1/status-pages/:statusPageId': MANAGE_MONITORS,
  'DELETE /v1/status-pages/:statusPageId': MANAGE_MONITORS,
  'GET /v1/projects/:projectId/badge-key': READ,
  'POST /v1/projects/:projectId/badge-key': MANAGE_MONITORS,

  // Maintenance windows: reading needs read; scheduling, changing and ending them needs manage_monitors and MANAGER, as pausing a monitor.
  'GET /v1/projects/:projectId/maintenance-windows': READ,
  'POST /v1/projects/:projectId/maintenance-windows': MANAGE_MONITORS,
  'GET /v1/maintenance-windows/:windowId': READ,
  'PATCH /v1/maintenance-windows/:windowId': MANAGE_MONITORS,
  'POST /v1/maintenance-windows/:windowId/end': MANAGE_MONITORS,
  'DELETE /v1/maintenance-windows/:windowId': MANAGE_MONITORS,

  // docs/api.md "History, uptime and tools": a tool run is gated as creating a monitor in the project it names.
  'POST /v1/tools/check-http': CREATE_MONITORS,
  'POST /v1/tools/check-ssl': CREATE_MONITORS,
  'POST /v1/tools/check-dns': CREATE_MONITORS,
};

/** `POST /v1/api-keys (project key)` → `POST /v1/api-keys`. */
export const routeOf = (operation: string): string => operation.replace(/ \(.*\)$/, '');

/** The contract: a project key has read plus monitor writes, fixed; an account key its scopes, and read always. */
function heldScopes(key: KeyUnderTest): ReadonlySet<Scope> {
  return new Set<Scope>(key.kind === 'project' ? ['read', 'manage_monitors'] : ['read', ...key.scopes]);
}

/** The contract: a project key reaches one project; an account key every project its user has a role on. */
export function reaches(caller: CallerOnTarget): boolean {
  if (caller.role === null) return false;
  return caller.key.kind === 'account' || caller.key.bound === 'target';
}

const holds = (key: KeyUnderTest, scopes: readonly Scope[]) => scopes.every((scope) => heldScopes(key).has(scope));

/**
 * The status the contract promises: the scope gate first (it depends on the key alone), then a project the
 * key cannot see is a 404, as if it did not exist, then the role gate.
 */
export function expectedOutcome(rule: Rule, success: 200 | 201 | 204, caller: CallerOnTarget): Outcome {
  const { key, role } = caller;
  switch (rule.gates) {
    case 'key':
    case 'project':
      if (rule.accountKeyOnly && key.kind === 'project') return SCOPE_DENIED;
      if (!holds(key, [rule.scope])) return SCOPE_DENIED;
      if (rule.gates === 'key') return { status: success };
      if (!reaches(caller)) return NOT_THERE;
      if (rule.minimumRole && RANK[role!] < RANK[rule.minimumRole]) return ROLE_DENIED;
      return { status: success };
    case 'mint account key':
      // An account key reaches every project; a project key cannot hand that out.
      return key.kind === 'account' && holds(key, rule.scopes) ? { status: success } : SCOPE_DENIED;
    case 'mint project key':
      if (!reaches(caller)) return NOT_THERE;
      if (!holds(key, ['read', 'manage_monitors'])) return SCOPE_DENIED;
      return RANK[role!] >= RANK.MANAGER ? { status: success } : ROLE_DENIED;
    case 'revoke own key':
      // A project key sees only the keys of its own project.
      if (key.kind === 'project') return rule.of === 'project key on the target' && key.bound === 'target' ? { status: success } : NOT_THERE;
      return rule.of === 'account key [read]' || holds(key, ['read', 'manage_monitors']) ? { status: success } : SCOPE_DENIED;
    case "revoke another user's key":
      return NOT_THERE;
    default: {
      const exhaustive: never = rule;
      return exhaustive;
    }
  }
}
