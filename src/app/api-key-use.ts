import { type ApiKeyUseEvent, USE_RECORDED_EVERY_MS, apiKeyUseDecider, apiKeyUseStream } from '../domain/identity/api-key-use.js';
import { type Actor, handleCommand } from './command-handler.js';
import { type CommandContext, nowIso } from './context.js';

/**
 * Records that an API key authenticated, at most once an hour per key and without a write per
 * request: this process remembers when it last recorded each key and asks nothing of the log in
 * between. Past the hour, the decision reads the key's use stream (its newest event only, the
 * stream's window is one), so another process, or this one after a restart, records no second use
 * within the same hour either, barring two deciding at the very same moment.
 */
export class ApiKeyUseRecorder {
  /** Key id → when this process last had the use recorded (or found it recorded), epoch ms. */
  private readonly recorded = new Map<string, number>();
  /** Keys whose use is being recorded now: a burst of requests records once. */
  private readonly pending = new Set<string>();

  constructor(
    private readonly context: CommandContext,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  /** Never fails the request it is called for: a use that could not be recorded is only logged. */
  use(userId: string, apiKeyId: string): Promise<ApiKeyUseEvent[]> {
    const now = this.context.clock().getTime();
    const last = this.recorded.get(apiKeyId);
    if ((last !== undefined && now - last < USE_RECORDED_EVERY_MS) || this.pending.has(apiKeyId)) return Promise.resolve([]);
    this.pending.add(apiKeyId);
    return recordApiKeyUse(this.context, userId, apiKeyId)
      .then((events) => {
        this.recorded.set(apiKeyId, now);
        return events;
      })
      .catch((error: unknown) => {
        this.onError(error);
        return [];
      })
      .finally(() => this.pending.delete(apiKeyId));
  }
}

const RECORDER: Actor = { kind: 'system', user_id: null, api_key_id: null, request_id: null };

/** Decides and appends one use; before a key's first, its stream's window is set to one event. */
export async function recordApiKeyUse(context: CommandContext, userId: string, apiKeyId: string): Promise<ApiKeyUseEvent[]> {
  const stream = apiKeyUseStream(apiKeyId);
  const newest = await context.events.readStream(stream, { direction: 'backwards', maxCount: 1 });
  if (newest.length === 0) await context.events.setStreamMaxCount(stream, 1);
  const outcome = await handleCommand(context, stream, apiKeyUseDecider, { type: 'RecordApiKeyUse', user_id: userId, api_key_id: apiKeyId, now: nowIso(context) }, { ...RECORDER, user_id: userId, api_key_id: apiKeyId });
  return outcome.events;
}
