import { ConfigError, loadConfig, parseRoles } from './config.js';
import { startProjectorWorker } from './projector-worker.js';
import { newThreadLinks } from './thread-links.js';
import { startVigil } from './vigil.js';

/** `npm start`: every role in one process on the embedded store (or whatever the env names). */
async function main(): Promise<void> {
  const config = loadConfig();
  const roles = parseRoles(process.env['VIGIL_ROLES']);
  // Beside other roles, the projector gets a thread of its own: its commits and the HTTP path then
  // use both cores instead of taking turns on one (bench:pings measures the difference).
  const onThread = config.projectorThread && roles.includes('projector') && roles.length > 1;
  let countIncidents = (_kind: string, _count: number) => {};
  const threads = newThreadLinks();
  const projectorThread = onThread ? await startProjectorWorker((kind, count) => countIncidents(kind, count), threads) : null;
  // The WAL is checkpointed on a thread of its own, never inside a commit the pings wait on.
  const vigil = await startVigil(config, { roles: onThread ? roles.filter((role) => role !== 'projector') : roles, threads, walCheckpoints: 'own-thread', healthListener: true, projectorOnThread: onThread });
  countIncidents = (kind, count) => vigil.metrics.incidentsOpened.inc({ kind }, count);
  vigil.logger.info({ url: vigil.url, health_url: vigil.healthUrl, roles, projector_thread: onThread, data_dir: config.dataDir, sqlite: vigil.stores.sqlitePath }, 'vigil started');
  const shutdown = (signal: string) => {
    vigil.logger.info({ signal }, 'stopping');
    vigil.stop().then(() => projectorThread?.stop()).then(
      () => process.exit(0),
      (error) => {
        vigil.logger.error({ err: error }, 'stop failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? `vigil: ${error.message}` : error);
  process.exit(1);
});
