import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

let built: string | null = null;

/**
 * The server as `npm start` runs it: compiled by `npm run build` (tsc, incremental: seconds when
 * nothing changed) and run from dist/, made once per bench process. Not the TypeScript sources
 * through tsx: its transform names every function it creates at run time (esbuild's keepNames,
 * one Object.defineProperty per closure), which a profile of the Sentry door showed as a tenth of
 * its time, and which no deployment runs.
 */
export function builtServer(): string {
  if (built === null) {
    const root = fileURLToPath(new URL('..', import.meta.url));
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    built = fileURLToPath(new URL('../dist/src/main/server.js', import.meta.url));
  }
  return built;
}

/**
 * TypeScript modules of the bench (a preload, and what it imports) compiled into `outDir` as ES
 * modules, for a server run from dist/ without tsx: returns the URL of the first. A server's worker
 * threads inherit its --import preloads, and tsx's loader is not there to read a .ts one.
 */
export function compiledModules(outDir: string, ...names: string[]): string {
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'package.json'), '{"type":"module"}\n');
  for (const name of names) {
    const source = readFileSync(fileURLToPath(new URL(`./${name}.ts`, import.meta.url)), 'utf8');
    const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
    writeFileSync(join(outDir, `${name}.js`), outputText);
  }
  return pathToFileURL(join(outDir, `${names[0]}.js`)).href;
}
