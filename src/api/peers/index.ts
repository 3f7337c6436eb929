import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiDependencies } from '../../web/dependencies.js';
import type { PingApiConfig } from '../ping-api.js';
import { answerHealthchecks, healthchecksRefusal, parseHealthchecksPath } from './healthchecks.js';
import { PeerPingCore, decodeSegment } from './peer-serve.js';
import { SENTRY_ENVELOPE_PATH, answerSentryEnvelope, sentryRefusal } from './sentry-crons.js';
import { KUMA_PUSH_PATH, answerKumaPush, kumaRefusal } from './uptime-kuma.js';

/**
 * The peers' ping URLs, so that a job instrumented for Healthchecks, Uptime Kuma or Sentry Crons
 * reports to Vigil with only the host changed: `/ping/…` (Healthchecks), `/api/push/<token>`
 * (Uptime Kuma) and `/api/<n>/envelope/` (Sentry). None is under /v1, so none meets a path of
 * Vigil's own Ping API. Like it, they are answered straight from node:http; returns false for a
 * path that is none of theirs.
 */
export function peerPings(deps: ApiDependencies, config: PingApiConfig): (request: IncomingMessage, response: ServerResponse) => boolean {
  const core = new PeerPingCore(deps, config);
  return (request, response) => {
    const url = request.url ?? '';
    const queryAt = url.indexOf('?');
    const path = queryAt < 0 ? url : url.slice(0, queryAt);
    const query = () => new URLSearchParams(queryAt < 0 ? '' : url.slice(queryAt + 1));
    if (path.startsWith('/ping/')) {
      const parsed = parseHealthchecksPath(path);
      if (parsed === null) return false;
      if (parsed === 'bad_exit_status') {
        core.serve(request, response, '/ping/:uuid/:action', path, async () => healthchecksRefusal(400, 'invalid url format'), healthchecksRefusal);
        return true;
      }
      core.serve(request, response, parsed.route, path, (origin) => answerHealthchecks(core, request, parsed, query(), origin), healthchecksRefusal);
      return true;
    }
    if (!path.startsWith('/api/')) return false;
    const push = KUMA_PUSH_PATH.exec(path);
    if (push) {
      core.serve(request, response, '/api/push/:pushToken', path, (origin) => answerKumaPush(core, request, decodeSegment(push[1]!), query(), origin), kumaRefusal);
      return true;
    }
    if (SENTRY_ENVELOPE_PATH.test(path)) {
      core.serve(request, response, '/api/:projectId/envelope/', path, (origin) => answerSentryEnvelope(core, request, query(), origin), sentryRefusal);
      return true;
    }
    return false;
  };
}
