import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonLine, visible } from '../../src/cli/visible.js';
import { runCliCaptured } from '../support/cli-run.js';
import { makeTempDir } from '../support/temp-dir.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../support/test-vigil.js';

/** C0, DEL or C1: what a terminal acts on. */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/u;

describe('What the CLI prints of text others wrote', function () {
  this.timeout(60_000);

  it('shows control characters as cat -v does, and JSON with DEL and C1 escaped as well', () => {
    expect(visible('\u001b]0;pwned\u0007 ok\r\n\u007f\u009b2J')).to.equal('^[]0;pwned^G ok^M^J^?M-^[2J');
    const line = jsonLine({ name: 'a\u001bb\u007fc\u009bd' });
    expect(line).to.not.match(CONTROL);
    expect(JSON.parse(line)).to.deep.equal({ name: 'a\u001bb\u007fc\u009bd' });
  });

  describe('vigil import', () => {
    let vigil: TestVigil;
    let projectId: string;
    const dir = makeTempDir('vigil-import-controls');
    before(async () => {
      // The CLI stamps what it writes with the wall clock, as it would beside a real server.
      vigil = await TestVigil.start({ clock: new TestClock(Date.now()) });
      const key = await vigil.accountKey(await vigil.user('importer@example.com'), ALL_SCOPES);
      projectId = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Imported' } })).body.project.id;
    });
    after(async () => {
      await vigil.stop();
      dir.remove();
    });

    it('refuses a name with control characters with a line that shows them, and never prints them raw', async () => {
      const file = join(dir.path, 'checks.json');
      writeFileSync(file, JSON.stringify({ checks: [
        { name: '\u001b]0;pwned\u0007Backups', timeout: 86_400, grace: 900 },
        { name: 'Reports', timeout: 3_600, grace: 60, desc: 'line one\u001b[2J' },
        { name: 'Sync', timeout: 3_600, grace: 60 },
      ] }));
      const run = await runCliCaptured(['import', 'healthchecks', file, '--project', projectId], vigil.env);
      expect(run.code, run.stderr).to.equal(0);
      const out = run.stdout.join('\n');
      expect(out).to.not.match(CONTROL);
      expect(out).to.match(/^unmapped +\^\[\]0;pwned\^GBackups +name must not contain control characters \(U\+001B at character 1\)/m);
      expect(out).to.match(/^unmapped +Reports +description must not contain control characters \(U\+001B at character 9\)/m);
      expect(out).to.match(/^created +sync +JOB_HEARTBEAT +Sync$/m);

      const json = await runCliCaptured(['import', 'healthchecks', file, '--project', projectId, '--json'], vigil.env);
      expect(json.stdout.join('\n')).to.not.match(CONTROL);
      expect(JSON.parse(json.stdout[0]!).unmapped[0].name).to.equal('\u001b]0;pwned\u0007Backups');
    });
  });
});
