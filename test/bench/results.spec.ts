import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { type BenchResult, readResults, renderReport } from '../../bench/results.js';
import { makeTempDir } from '../support/temp-dir.js';

const replay: BenchResult = {
  name: 'rebuild-1m',
  date: '2026-11-21T17:00:00.000Z',
  command: 'npm run bench:replay',
  machine: 'Test CPU, 2 cores',
  figures: { events_per_s: 31000, peak_rss_mib: 190 },
  baseline: { name: 'reading the log only', figures: { events_per_s: 160000 } },
  ratio: 0.194,
  target: { description: 'at least 50,000 events/s rebuilding 1,000,000 events', met: false },
};
const pings: BenchResult = {
  name: 'Ping ingestion (GET /v1/ping/<id>)',
  date: '2026-11-21T17:05:00.000Z',
  figures: { req_per_s: 2500 },
  baseline: { name: 'bare node:http', figures: { req_per_s: 28000 } },
  target: { description: 'half the bare server', met: true },
};

describe('Benchmark record', () => {
  it('lists every result with its target met or not, then each with its figures beside the same-run baseline', () => {
    const report = renderReport([{ file: 'pings', result: pings }, { file: 'rebuild-1m', result: replay }], new Date('2026-11-21T18:00:00.000Z'), 'This machine');
    expect(report).to.contain('Regenerated 2026-11-21T18:00:00.000Z on This machine.');
    expect(report).to.contain('| [rebuild-1m](#rebuild-1m) | at least 50,000 events/s rebuilding 1,000,000 events | **no** |');
    expect(report).to.contain('| [Ping ingestion (GET /v1/ping/&lt;id&gt;)](#pings) | half the bare server | yes |');
    expect(report).to.contain('| events_per_s | 31,000 | 160,000 |');
    expect(report).to.contain('| peak_rss_mib | 190 |  |');
    expect(report).to.contain('Ran 2026-11-21T17:00:00.000Z on Test CPU, 2 cores.');
    expect(report).to.contain('Ratio to the baseline: 0.194.');
    expect(report).to.contain('Target: at least 50,000 events/s rebuilding 1,000,000 events — **not met**.');
  });

  it('reads every result file of the folder and leaves out, with a word, one that is not a result', () => {
    const dir = makeTempDir('vigil-bench-results');
    try {
      writeFileSync(`${dir.path}/rebuild-1m.json`, JSON.stringify(replay));
      writeFileSync(`${dir.path}/pings.json`, JSON.stringify(pings));
      writeFileSync(`${dir.path}/broken.json`, JSON.stringify({ name: 'no figures', date: 'today' }));
      writeFileSync(`${dir.path}/truncated.json`, '{"name": "rebu');
      const warnings: string[] = [];
      const read = readResults(dir.path, (message) => warnings.push(message));
      expect(read.map((r) => r.file)).to.deep.equal(['pings', 'rebuild-1m']);
      expect(warnings.map((w) => /([a-z]+\.json) is not a benchmark result/.exec(w)?.[1])).to.deep.equal(['broken.json', 'truncated.json']);
      expect(read[1]!.result).to.deep.equal(replay);
    } finally {
      dir.remove();
    }
  });
});
