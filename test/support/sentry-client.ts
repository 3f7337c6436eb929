/**
 * A job instrumented with the real @sentry/node SDK, run as a child process of a spec so that the
 * SDK's globals and its patching of node:http stay out of the test process. It takes its scenario
 * as JSON in argv[2], runs it, flushes, and prints one JSON line per envelope the SDK's own
 * transport sent: the status it got and the rate-limit headers the SDK reads, then the ids of the
 * check-ins it captured.
 *   node --import=tsx test/support/sentry-client.ts '{"dsn": …, "steps": [...]}'
 */
import type { MonitorConfig } from '@sentry/core';
import * as Sentry from '@sentry/node';

export type SentryStep =
  | { op: 'withMonitor'; slug: string; config?: MonitorConfig; throws?: boolean }
  | { op: 'checkInPair'; slug: string; config?: MonitorConfig; duration?: number }
  | { op: 'exception'; message: string };

export interface SentryScenario {
  dsn: string;
  release?: string;
  steps: SentryStep[];
}

export interface SentryRun {
  sent: { statusCode: number | undefined; retryAfter: string | null; rateLimits: string | null }[];
  checkInIds: string[];
  errors: string[];
}

const scenario = JSON.parse(process.argv[2] ?? '{}') as SentryScenario;
const run: SentryRun = { sent: [], checkInIds: [], errors: [] };

Sentry.init({
  dsn: scenario.dsn,
  ...(scenario.release ? { release: scenario.release } : {}),
  defaultIntegrations: false,
  tracesSampleRate: 0,
  // The SDK's own transport, watched: what each send was answered.
  transport: (options) => {
    const transport = Sentry.makeNodeTransport(options);
    return {
      ...transport,
      send: async (envelope) => {
        const answer = await transport.send(envelope);
        run.sent.push({ statusCode: answer.statusCode, retryAfter: answer.headers?.['retry-after'] ?? null, rateLimits: answer.headers?.['x-sentry-rate-limits'] ?? null });
        return answer;
      },
    };
  },
});

for (const step of scenario.steps) {
  switch (step.op) {
    case 'withMonitor':
      try {
        await Sentry.withMonitor(
          step.slug,
          async () => {
            await new Promise((resolve) => setTimeout(resolve, 20));
            if (step.throws) throw new Error('the job failed');
          },
          step.config,
        );
      } catch (error) {
        run.errors.push(String(error));
      }
      break;
    case 'checkInPair': {
      const checkInId = Sentry.captureCheckIn({ monitorSlug: step.slug, status: 'in_progress' }, step.config);
      // The job's work, between its start and its end.
      await new Promise((resolve) => setTimeout(resolve, 20));
      Sentry.captureCheckIn({ checkInId, monitorSlug: step.slug, status: 'ok', duration: step.duration ?? 1.5 });
      run.checkInIds.push(checkInId);
      break;
    }
    case 'exception':
      Sentry.captureException(new Error(step.message));
      break;
  }
  // Sent in order, one envelope after another, as a job's steps would be.
  await Sentry.flush(5000);
}
await Sentry.close(5000);
process.stdout.write(`${JSON.stringify(run)}\n`);
