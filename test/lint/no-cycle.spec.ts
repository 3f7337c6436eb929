import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { ESLint } from 'eslint';
import { spawnSync } from 'node:child_process';

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

  describe('with type-only imports (import-x skips those; dependency-cruiser counts them)', () => {
    // `npm run lint`'s second step, on one fixture dir: its exit status and what it printed.
    const cruise = (dir: string) => {
      const run = spawnSync(process.execPath, [fileURLToPath(new URL('../../node_modules/dependency-cruiser/bin/dependency-cruise.mjs', import.meta.url)), fixture(dir), '--config', '.dependency-cruiser.cjs', '--output-type', 'err'], { cwd: root, encoding: 'utf8' });
      return { status: run.status, output: `${run.stdout}${run.stderr}` };
    };

    it('fails on a cycle of `import type`, naming both files, and on a cycle of values', () => {
      const types = cruise('type-cycle');
      expect(types.status, types.output).to.not.equal(0);
      expect(types.output).to.match(/no-circular: test\/lint\/fixtures\/type-cycle\/a\.ts →\s+test\/lint\/fixtures\/type-cycle\/b\.ts/);
      expect(cruise('cycle').status).to.not.equal(0);
    });

    it('passes where the imports go one way', () => {
      const acyclic = cruise('acyclic');
      expect(acyclic.status, acyclic.output).to.equal(0);
    });
  });
});
