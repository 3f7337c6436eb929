/**
 * The last `limitBytes` bytes of a job's output, in bounded memory however much it prints: a cron job's
 * end (the error, the summary) is what tells why it failed.
 */
export class OutputTail {
  private chunks: Buffer[] = [];
  private heldBytes = 0;

  constructor(readonly limitBytes: number) {}

  push(chunk: Buffer): void {
    if (this.limitBytes === 0) return;
    this.chunks.push(chunk);
    this.heldBytes += chunk.length;
    while (this.heldBytes > this.limitBytes) {
      const oldest = this.chunks[0]!;
      const excess = this.heldBytes - this.limitBytes;
      if (oldest.length <= excess) {
        this.chunks.shift();
        this.heldBytes -= oldest.length;
      } else {
        // A copy, so the dropped head of a large chunk is not kept alive by a view into it.
        this.chunks[0] = Buffer.from(oldest.subarray(excess));
        this.heldBytes -= excess;
      }
    }
  }

  /** As UTF-8, starting at a whole character: a cut through a multi-byte one would show as garbage. */
  text(): string {
    const bytes = Buffer.concat(this.chunks);
    let start = 0;
    while (start < bytes.length && start < 3 && isContinuationByte(bytes[start]!)) start += 1;
    return bytes.subarray(start).toString('utf8');
  }
}

function isContinuationByte(byte: number): boolean {
  return (byte & 0b1100_0000) === 0b1000_0000;
}
