import { expect } from 'chai';
import { errorResponse } from '../../src/web/errors.js';
import { StoreCannotWriteError } from '../../src/eventstore/storage-fault.js';
import { AsOfBusyError } from '../../src/audit/as-of-reader.js';

describe('errorResponse', () => {
  describe('for a disk that refuses a write', () => {
    it('answers 503 with Retry-After and the event store’s own words when the log refused it', () => {
      const refused = new StoreCannotWriteError('event store', { code: 'SQLITE_FULL', reason: 'the disk is full' });
      expect(errorResponse(refused)).to.deep.equal({
        status: 503,
        body: { error: 'the event store cannot write: the disk is full (SQLITE_FULL); retry later' },
        headers: { 'Retry-After': '10' },
      });
    });

    it('answers 503 with Retry-After for the same fault raised by another store (a lease, a read model)', () => {
      const raw = Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_SHMSIZE' });
      expect(errorResponse(raw)).to.deep.equal({
        status: 503,
        body: { error: 'the store cannot write: the disk failed a write (SQLITE_IOERR_SHMSIZE); retry later' },
        headers: { 'Retry-After': '10' },
      });
    });

    it('still answers anything else unexpected with a bland 500', () => {
      expect(errorResponse(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })).status).to.equal(500);
    });
  });

  it('answers 503 with Retry-After when too many as_of queries already wait', () => {
    expect(errorResponse(new AsOfBusyError(32))).to.deep.equal({
      status: 503,
      body: { error: 'too many as_of queries are waiting; retry shortly' },
      headers: { 'Retry-After': '1' },
    });
  });
});
