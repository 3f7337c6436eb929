import type { VigilConfig } from '../main/config.js';

/**
 * Which store a CLI command used, for its errors: a forgotten or different VIGIL_DATA_DIR opens
 * another (often new, empty) database, and "no user has the email …" alone does not tell so.
 */
export function describeStore(config: VigilConfig, env: NodeJS.ProcessEnv, sqlitePath: string): string {
  const file = describeDatabaseFile(env, sqlitePath);
  if (config.eventStoreUrl && config.mongoUrl) {
    return `EventStoreDB ${withoutCredentials(config.eventStoreUrl)} (VIGIL_EVENTSTORE_URL) and MongoDB ${withoutCredentials(config.mongoUrl)} (VIGIL_MONGODB_URL)`;
  }
  if (config.eventStoreUrl) return `EventStoreDB ${withoutCredentials(config.eventStoreUrl)} (VIGIL_EVENTSTORE_URL) with read models in ${file}`;
  if (config.mongoUrl) return `${file} with read models in MongoDB ${withoutCredentials(config.mongoUrl)} (VIGIL_MONGODB_URL)`;
  return file;
}

/** The embedded file, absolute, and where its directory came from. */
export function describeDatabaseFile(env: NodeJS.ProcessEnv, sqlitePath: string): string {
  return `${sqlitePath} (${env['VIGIL_DATA_DIR'] ? 'VIGIL_DATA_DIR' : 'VIGIL_DATA_DIR is not set, so ./data'})`;
}

/**
 * A connection string as it may be shown: no user and password, and no query, where options such
 * as tlsCertificateKeyFilePassword live. Done on the text, as `mongodb://a:1,b:2` is no WHATWG URL.
 */
export function withoutCredentials(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1').replace(/[?#].*$/, '');
}
