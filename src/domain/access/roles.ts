/** Project roles, lowest first: each role can do everything the ones before it can. */
export const ROLES = ['READONLY', 'MEMBER', 'MANAGER', 'OWNER'] as const;
export type Role = (typeof ROLES)[number];

export function roleAtLeast(role: Role, minimum: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(minimum);
}
