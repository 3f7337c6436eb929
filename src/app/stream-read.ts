/** A stream a decision read without writing to it: the append checks it is still at this revision. */
export interface StreamRead {
  streamName: string;
  expectedRevision: number | 'no_stream';
}
