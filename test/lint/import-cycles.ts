import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/**
 * Import cycles among the TypeScript files under `roots`, `import type` included: import-x's
 * no-cycle skips type-only imports, and a type-only cycle still ties modules together (a
 * concept that cannot be moved or read without the other). Each cycle is one strongly connected
 * component, its files relative to `base`, sorted.
 */
export function findImportCycles(roots: string[], base: string): string[][] {
  const files = roots.flatMap((root) => tsFiles(resolve(base, root)));
  const known = new Set(files);
  const edges = new Map(files.map((file) => [file, localImports(file).filter((target) => known.has(target))]));
  return stronglyConnected(files, edges)
    .filter((component) => component.length > 1 || (edges.get(component[0]!) ?? []).includes(component[0]!))
    .map((component) => component.map((file) => relative(base, file)).sort())
    .sort((a, b) => a[0]!.localeCompare(b[0]!));
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'fixtures' ? [] : tsFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The relative modules a file imports or re-exports, values and types alike ('./x.js' is ./x.ts). */
function localImports(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => resolve(dirname(file), name.replace(/\.js$/, '.ts')));
}

/** Tarjan's algorithm: the strongly connected components of the import graph. */
function stronglyConnected(nodes: string[], edges: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    components.push(component);
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return components;
}

// `npm run lint` runs this after eslint: it prints each cycle and fails when there is one.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const cycles = findImportCycles(process.argv.slice(2), process.cwd());
  for (const cycle of cycles) console.error(`import cycle (type-only imports included) among: ${cycle.join(', ')}`);
  if (cycles.length > 0) process.exitCode = 1;
}
