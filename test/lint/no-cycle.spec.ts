import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { ESLint } from 'eslint';
import { findImportCycles } from './import-cycles.js';

// The project's own eslint.config.js, run as `npm run lint` runs it, on two small fixtures: the
// cycle rule is proven to fail on a cycle (import-x reports nothing, silently, when it cannot
// parse or resolve the files it follows).
const root = fileURLToPath(new URL('../..', import.meta.url));
const fixture = (path: string) => fileURLToPath(new URL(`fixtures/${path}`, import.meta.url));

async function lint(...paths: string[]) {
  // `ignore: false`: the config ignores test/lint/fixtures so that `npm run lint` passes; here they are the subject.
  const eslint = new ESLint({ cwd: root, ignore: false });
  const results = await eslint.lintFiles(paths.map(fixture));
  return results.flatMap((result) => result.messages.map((message) => ({ file: result.filePath, rule: message.ruleId, severity: message.severity, text: message.message })));
}

describe('Lint', function () {
  this.timeout(180_000);

  it('reports an import cycle as an error, on both files of the cycle', async () => {
    const messages = await lint('cycle/a.ts', 'cycle/b.ts');
    const cycles = messages.filter((message) => message.rule === 'import-x/no-cycle');
    expect(cycles.map((message) => message.file).sort(), JSON.stringify(messages)).to.deep.equal([fixture('cycle/a.ts'), fixture('cycle/b.ts')]);
    expect(cycles.every((message) => message.severity === 2), 'a cycle is an error, not a warning').to.equal(true);
  });

  it('finds nothing in the same two files without the cycle', async () => {
    expect(await lint('acyclic/a.ts', 'acyclic/b.ts')).to.deep.equal([]);
  });

  describe('with type-only imports (import-x skips those; test/lint/import-cycles.ts does not)', () => {
    it('finds a cycle of `import type`, and a cycle of values', () => {
      expect(findImportCycles([fixture('type-cycle')], root)).to.deep.equal([['test/lint/fixtures/type-cycle/a.ts', 'test/lint/fixtures/type-cycle/b.ts']]);
      expect(findImportCycles([fixture('cycle')], root)).to.deep.equal([['test/lint/fixtures/cycle/a.ts', 'test/lint/fixtures/cycle/b.ts']]);
    });

    it('finds nothing where the imports go one way', () => {
      expect(findImportCycles([fixture('acyclic')], root)).to.deep.equal([]);
    });
  });
});
