import { ConfigError, loadConfig, parseRoles } from './config.js';
import { startVigil } from './vigil.js';

/** `npm start`: every role in one process on the embedded store (or whatever the env names). */
async function main(): Promise<void> {
  const config = loadConfig();
  const roles = parseRoles(process.env['VIGIL_ROLES']);
  const vigil = await startVigil(config, { roles });
  vigil.logger.info({ url: vigil.url, roles, data_dir: config.dataDir, sqlite: vigil.stores.sqlitePath }, 'vigil started');
  const shutdown = (signal: string) => {
    vigil.logger.info({ signal }, 'stopping');
    vigil.stop().then(
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
