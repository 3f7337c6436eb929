import { randomUUID } from 'node:crypto';
import { type SignInCommand, signInDecider, signInStream } from '../domain/identity/sign-ins.js';
import { type Actor, appendRetrying, toAppendable, withEventIds } from './command-handler.js';
import type { CommandContext } from './context.js';

/**
 * Records a sign-in, a failed one, or sessions ended, in the person's `signins-<user id>` stream
 * (`signins-unknown` for an email that names no one). Appended without an expected revision and
 * without reading the stream first: nothing is decided from what it holds, so there is nothing a
 * concurrent append could make wrong, and a sign-in costs one append however long the record grows.
 */
export async function recordSignIn(context: CommandContext, command: SignInCommand, actor: Actor): Promise<{ position: number | null }> {
  const events = signInDecider.decide(command, signInDecider.initialState());
  if (events.length === 0) return { position: null };
  const stream = signInStream(command.user_id);
  const result = await appendRetrying(context.events, {
    streamName: stream,
    events: withEventIds(randomUUID(), stream, 'any', events.map((event) => toAppendable(event, actor))),
    expectedRevision: 'any',
  });
  return { position: result.position };
}
