/**
 * Work is divided by monitor. Each document the timer, checker and notifier work from carries its
 * monitor's slot, a stable hash that never changes with the deployment; a deployment groups the
 * slots into VIGIL_PARTITIONS partitions (slot mod partitions), the unit that instances lease.
 */
export const SLOT_COUNT = 1024;

/** FNV-1a: stable across processes and versions, and spreads UUIDs evenly. */
export function slotOf(monitorId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < monitorId.length; i += 1) {
    hash ^= monitorId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % SLOT_COUNT;
}

export function slotsOfPartition(partition: number, partitions: number): number[] {
  const slots: number[] = [];
  for (let slot = partition; slot < SLOT_COUNT; slot += partitions) slots.push(slot);
  return slots;
}
