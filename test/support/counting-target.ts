import type { Socket } from 'node:net';
import { type Handler, type Target, startTarget } from './http-targets.js';

export interface CountingTarget extends Target {
  port: number;
  /** Every TCP connection the server accepted, whether or not a request came on it. */
  accepted: () => number;
}

/** A real server on 127.0.0.1 that counts the connections it accepts, for proving that none were made. */
export async function startCountingTarget(handler: Handler): Promise<CountingTarget> {
  let accepted = 0;
  const target = await startTarget(handler, undefined, (socket: Socket) => {
    accepted += 1;
    socket.on('error', () => undefined);
  });
  return { ...target, port: Number(new URL(target.url).port), accepted: () => accepted };
}
