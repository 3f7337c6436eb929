/**
 * What a store says when its disk will not take a write: SQLite's SQLITE_FULL (a write that found
 * no space), its SQLITE_IOERR family (where ENOSPC surfaces from fallocate, ftruncate, the -shm
 * file's growth or an fsync, and where a failing disk does too), and Node's ENOSPC. None of these
 * is the request's fault, and each passes once space is back: the client is told to retry later
 * rather than given a bare 500.
 */
export interface StorageFault {
  /** The code as the store gave it: SQLITE_FULL, SQLITE_IOERR_WRITE, ENOSPC… */
  code: string;
  /** What it means, as an operator reads it. */
  reason: string;
}

export function storageFault(error: unknown): StorageFault | null {
  if (error instanceof StoreCannotWriteError) return error.fault;
  const code = typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : null;
  if (code === null) return null;
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') return { code, reason: 'the disk is full' };
  if (code === 'SQLITE_IOERR' || code.startsWith('SQLITE_IOERR_')) {
    return { code, reason: /READ$/.test(code) ? 'the disk failed a read' : 'the disk failed a write' };
  }
  return null;
}

/** The disk refused one of the store's writes: nothing of it was recorded, and a retry may succeed. */
export class StoreCannotWriteError extends Error {
  constructor(
    readonly store: string,
    readonly fault: StorageFault,
    options?: { cause?: unknown },
  ) {
    super(`the ${store} cannot write: ${fault.reason} (${fault.code}); retry later`, options);
    this.name = 'StoreCannotWriteError';
  }
}

/** Whether a store can commit now, and if not, why (`error`) and since when. */
export type WriteHealth = { ok: true } | { ok: false; error: string; since: string };
