import { randomUUID } from 'node:crypto';
import {
  LISTENING_STREAM,
  type ListeningEvent,
  type ListeningRecord,
  OUTAGES_KEPT,
  OUTAGES_STREAM,
  listeningDecider,
} from '../domain/listening/listening.js';
import { WrongExpectedRevisionError } from '../eventstore/event-store.js';
import { BackgroundLoop } from './background-loop.js';
import { type Actor, toAppendable, toDomainEvent, withEventIds } from './command-handler.js';
import { type CommandContext, nowIso } from './context.js';
import type { StreamRead } from './stream-read.js';

const LISTENER: Actor = { kind: 'system', user_id: null, api_key_id: null, request_id: null };
const MAX_ATTEMPTS = 8;

/** Keeps the confirmations to the last one and the outages to the newest OUTAGES_KEPT (the log's windowed streams). */
export async function keepListeningStreamsBounded(context: CommandContext): Promise<void> {
  await context.events.setStreamMaxCount(LISTENING_STREAM, 1);
  await context.events.setStreamMaxCount(OUTAGES_STREAM, OUTAGES_KEPT);
}

/**
 * Confirms that the Ping API is listening at `now`, recording first the silence before it when
 * the last confirmation promised another sooner. The outage and the confirmation are appended
 * conditional on both streams (as one where the store can; the outage first elsewhere, so a crash
 * between leaves the outage recorded and the next confirmation starts after it), so two api
 * processes confirming at once record a silence once.
 */
export async function confirmListening(context: CommandContext, intervalMs: number, first: boolean): Promise<ListeningEvent[]> {
  const commandId = randomUUID();
  return context.streamLocks.run(LISTENING_STREAM, async () => {
    for (let attempt = 1; ; attempt += 1) {
      // Each stream's newest event is all the decision needs: the last confirmation, the last outage's end.
      const [confirmed, outages] = await Promise.all([LISTENING_STREAM, OUTAGES_STREAM].map((stream) => context.events.readStream(stream, { direction: 'backwards', maxCount: 1 })));
      const state = [...confirmed!, ...outages!].sort((a, b) => a.position - b.position).map((e) => toDomainEvent<ListeningEvent>(e)).reduce(listeningDecider.evolve, listeningDecider.initialState());
      const events = listeningDecider.decide({ type: 'ConfirmListening', now: nowIso(context), interval_ms: intervalMs, first }, state);
      const revision = (read: typeof confirmed) => read![0]?.revision ?? ('no_stream' as const);
      const append = (streamName: string, expectedRevision: number | 'no_stream', type: ListeningEvent['type']) => ({
        streamName, expectedRevision, events: withEventIds(commandId, streamName, expectedRevision, events.filter((e) => e.type === type).map((e) => toAppendable(e, LISTENER))),
      });
      const toOutages = append(OUTAGES_STREAM, revision(outages), 'ListeningInterrupted');
      const toConfirmed = append(LISTENING_STREAM, revision(confirmed), 'ListeningConfirmed');
      try {
        await context.appender.append([toOutages, toConfirmed], []);
        return events;
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_ATTEMPTS) throw error;
      }
    }
  });
}

/**
 * What a deadline decision needs to know of Vigil's listening: the outages kept and the last
 * confirmation. The decision is conditional on the outages stream, so an outage recorded while it
 * was being made sends it back to be made again. Not on the confirmations: they come every few
 * seconds and a newer one changes nothing a decision relied on (a silence it took for an outage
 * under way is only ever followed by that outage recorded, before the next confirmation).
 */
export async function findListening(context: CommandContext): Promise<{ listening: ListeningRecord; read: StreamRead[] }> {
  const [confirmed, outages] = await Promise.all([
    context.events.readStream(LISTENING_STREAM, { direction: 'backwards', maxCount: 1 }),
    context.events.readStream(OUTAGES_STREAM, { direction: 'backwards', maxCount: OUTAGES_KEPT }),
  ]);
  const last = confirmed[0] ? toDomainEvent<ListeningEvent>(confirmed[0]) : null;
  const listening: ListeningRecord = {
    outages: outages.map((e) => toDomainEvent<ListeningEvent>(e)).flatMap((e) => (e.type === 'ListeningInterrupted' ? [{ from: e.data.from, to: e.data.to }] : [])),
    confirmed_at: last?.type === 'ListeningConfirmed' ? last.data.at : null,
    confirm_again_by: last?.type === 'ListeningConfirmed' ? last.data.confirm_again_by : null,
  };
  return { listening, read: [{ streamName: OUTAGES_STREAM, expectedRevision: outages[0]?.revision ?? 'no_stream' }] };
}

/**
 * The api role's confirmation loop: once at start (recording the outage since the last process
 * stopped), then every `intervalMs`. A tick that comes late by more than an interval records the
 * silence before it: a paused process, a suspended machine, a clock stepped forward.
 */
export class ListeningLoop {
  private ticks = 0;
  /** The loop's first tick comes at once: start() has just confirmed. */
  private skipNext = false;
  private readonly loop: BackgroundLoop;

  constructor(
    private readonly context: CommandContext,
    private readonly intervalMs: number,
    private readonly onError: (error: unknown) => void,
    private readonly onOutage: (outage: Extract<ListeningEvent, { type: 'ListeningInterrupted' }>['data']) => void = () => {},
  ) {
    const tick = async () => {
      if (this.skipNext) this.skipNext = false;
      else await this.tick();
    };
    this.loop = new BackgroundLoop(tick, () => this.intervalMs, onError);
  }

  /** Confirms once; returns what was recorded. */
  async tick(): Promise<ListeningEvent[]> {
    const events = await confirmListening(this.context, this.intervalMs, this.ticks === 0);
    this.ticks += 1;
    for (const event of events) if (event.type === 'ListeningInterrupted') this.onOutage(event.data);
    return events;
  }

  /** The first confirmation is awaited, so that what starts after it finds any outage recorded. */
  async start(): Promise<void> {
    await this.tick().catch(this.onError);
    this.skipNext = true;
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }
}
