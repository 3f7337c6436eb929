import { createHash } from 'node:crypto';

/** The bytes an event's hash covers: everything stored about it, in a form with no ambiguity. */
export function eventContent(e: { stream: string; revision: number; id: string; type: string; created: string; data: string; metadata: string }): string {
  return JSON.stringify([e.stream, e.revision, e.id, e.type, e.created, e.data, e.metadata]);
}

/** Chained to the stream's previous event: editing, removing or moving one event breaks every later link. */
export function eventHash(previousInStream: string, content: string): string {
  return createHash('sha256').update(previousInStream).update('\n').update(content).digest('hex');
}

/** The running hash over the whole log, in position order. */
export function chainHash(previousChain: string, eventHashValue: string): string {
  return createHash('sha256').update(previousChain).update('\n').update(eventHashValue).digest('hex');
}
