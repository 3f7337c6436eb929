import type { ReadModelStore } from '../readstore/read-model-store.js';
import { badInput } from './refusal.js';

/** Who may create a monitor (any member) and change, pause or delete one (a manager), with a key that may manage monitors. */
export const CREATE = { scope: 'manage_monitors', minimumRole: 'MEMBER' } as const;
export const MANAGE = { scope: 'manage_monitors', minimumRole: 'MANAGER' } as const;


/** Every group and channel named is one of the project's (the console's monitor form checks the same). */
export async function assertNotificationTargets(readModels: ReadModelStore, projectId: string, groups: readonly string[], channels: readonly string[]) {
  for (const [collection, ids, field, what] of [
    ['notification_groups', groups, 'notification_group_ids', 'notification group'],
    ['notification_channels', channels, 'notification_channel_ids', 'notification channel'],
  ] as const) {
    for (const id of ids) {
      const found = await readModels.get<{ project_id: string }>(collection, id);
      if (!found || found.doc.project_id !== projectId) throw badInput(`${field}: ${what} ${id} does not exist in this project`);
    }
  }
}

/** Who may acknowledge, resolve or note an incident: any member, with a key that may manage monitors. */
export const ACT = { scope: 'manage_monitors', minimumRole: 'MEMBER' } as const;
