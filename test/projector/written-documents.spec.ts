import { expect } from 'chai';
import fc from 'fast-check';
import { WrittenDocuments } from '../../src/projector/written-documents.js';

describe('WrittenDocuments', () => {
  it('never answers "not written" for a document it was told about', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('pings', 'audit_events', 'monitors'), fc.string()), { maxLength: 300 }), (documents) => {
        const written = new WrittenDocuments(documents.length);
        for (const [collection, id] of documents) written.add(collection, id);
        expect(documents.every(([collection, id]) => written.mayHave(collection, id))).to.equal(true);
      }),
    );
  });

  it('answers "not written" for nearly every other document, up to the expected count', () => {
    const written = new WrittenDocuments(100_000);
    for (let n = 0; n < 100_000; n++) written.add('audit_events', `pings-${n}@${n % 97}`);
    let maybe = 0;
    for (let n = 0; n < 100_000; n++) if (written.mayHave('audit_events', `pings-${n + 100_000}@${n % 97}`)) maybe++;
    expect(maybe).to.be.lessThan(2_000);
    expect(written.mayHave('pings', 'pings-1@1')).to.equal(false);
  });
});
