import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * A worker thread running the module named `name` beside `from` (an `import.meta.url`): the `.js`
 * file once built; under tsx (development, tests) the `.ts` source, and a worker thread does not
 * inherit tsx's loader, so it registers it first.
 */
export function startModuleWorker(from: string, name: string, workerData: unknown): Worker {
  const extension = extname(fileURLToPath(from));
  const entry = new URL(`./${name}${extension}`, from);
  if (extension !== '.ts') return new Worker(entry, { workerData });
  const bootstrap = `import(${JSON.stringify(tsxApi(from))}).then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(bootstrap, { eval: true, workerData });
}

/** tsx's ESM api (`tsx/esm/api`, its import condition), found from wherever the caller runs. */
function tsxApi(from: string): string {
  const packageDir = dirname(createRequire(from).resolve('tsx/package.json'));
  return pathToFileURL(join(packageDir, 'dist/esm/api/index.mjs')).href;
}
