import { expect } from 'chai';
import { documentOperations, duplicateKeyIndex, indexFields, operationId } from '../../src/readstore/mongo-document-writes.js';
import type { DocumentWrite } from '../../src/readstore/read-model-store.js';

const write = (id: string, position: number, doc: DocumentWrite['doc']): DocumentWrite => ({ collection: 'users', id, position, doc });

describe('MongoDB document writes', () => {
  describe('documentOperations', () => {
    it('writes a document over an older one or none, and skips a replay at or below the stored position', () => {
      const stored = new Map([['older', 3], ['same', 5], ['newer', 9]]);
      const operations = documentOperations(
        [write('older', 5, { n: 1 }), write('same', 5, { n: 2 }), write('newer', 5, { n: 3 }), write('absent', 5, { n: 4 })],
        stored,
      );
      expect(operations).to.deep.equal([
        { replaceOne: { filter: { _id: 'older' }, replacement: { _position: 5, doc: { n: 1 } }, upsert: true } },
        { replaceOne: { filter: { _id: 'absent' }, replacement: { _position: 5, doc: { n: 4 } }, upsert: true } },
      ]);
    });

    it('deletes only a stored document no newer than the deletion, guarded by its position too', () => {
      const stored = new Map([['older', 3], ['same', 5], ['newer', 9]]);
      const operations = documentOperations([write('older', 5, null), write('same', 5, null), write('newer', 5, null), write('absent', 5, null)], stored);
      expect(operations).to.deep.equal([
        { deleteOne: { filter: { _id: 'older', _position: { $lte: 5 } } } },
        { deleteOne: { filter: { _id: 'same', _position: { $lte: 5 } } } },
      ]);
    });

    it('puts the deletions first, so a unique value one frees can be taken by a document of the same batch', () => {
      const operations = documentOperations([write('new', 7, { email: 'a@example.com' }), write('gone', 8, null)], new Map([['gone', 2]]));
      expect(operations.map(operationId)).to.deep.equal(['gone', 'new']);
      expect(Object.keys(operations[0]!)).to.deep.equal(['deleteOne']);
    });
  });

  describe('reading a duplicate-key error', () => {
    it('finds the index a server message names', () => {
      expect(duplicateKeyIndex('E11000 duplicate key error collection: vigil.rm_users index: doc.email_1 dup key: { doc.email: "a@example.com" }')).to.equal('doc.email_1');
      expect(duplicateKeyIndex('E11000 duplicate key error collection: vigil.rm_users index: _id_ dup key: { _id: "u1" }')).to.equal('_id_');
      expect(duplicateKeyIndex('WriteConflict error')).to.equal(null);
      expect(duplicateKeyIndex(undefined)).to.equal(null);
    });

    it('names the fields of an index from its default name, underscores and dots in them included', () => {
      expect(indexFields('doc.key_hash_1')).to.deep.equal(['key_hash']);
      expect(indexFields('doc.project_id_1_doc.name_1')).to.deep.equal(['project_id', 'name']);
      expect(indexFields('doc.owner.id_1_doc.created_at_-1')).to.deep.equal(['owner.id', 'created_at']);
      expect(indexFields('by_hand')).to.deep.equal([]);
    });
  });
});
