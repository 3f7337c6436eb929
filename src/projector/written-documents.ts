const BITS_PER_DOCUMENT = 10;
const PROBES = 4;
const MIN_BITS = 2 ** 16;
const MAX_BITS = 2 ** 28;

/**
 * The documents a rebuild has written so far, as a Bloom filter: "not written" is certain and
 * "maybe" costs a read. A rebuild starts from empty collections, so most documents it touches
 * (one audit entry per event) are new, and this lets it skip reading each of them first, in a
 * few megabytes however long the log is. Past the expected count it only answers "maybe" more
 * often; it is never wrong in the direction that matters.
 */
export class WrittenDocuments {
  private readonly bits: Uint32Array;
  private readonly mask: number;

  constructor(expectedDocuments: number) {
    let size = MIN_BITS;
    while (size < expectedDocuments * BITS_PER_DOCUMENT && size < MAX_BITS) size *= 2;
    this.bits = new Uint32Array(size / 32);
    this.mask = size - 1;
  }

  add(collection: string, id: string): void {
    const [h1, h2] = hashes(collection, id);
    for (let i = 0; i < PROBES; i++) {
      const bit = (h1 + i * h2) & this.mask;
      this.bits[bit >>> 5]! |= 1 << (bit & 31);
    }
  }

  mayHave(collection: string, id: string): boolean {
    const [h1, h2] = hashes(collection, id);
    for (let i = 0; i < PROBES; i++) {
      const bit = (h1 + i * h2) & this.mask;
      if ((this.bits[bit >>> 5]! & (1 << (bit & 31))) === 0) return false;
    }
    return true;
  }
}

/** Two independent 32-bit FNV-1a hashes of the pair; probes are h1 + i·h2 (Kirsch–Mitzenmacher). */
function hashes(collection: string, id: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x5bd1e995;
  for (let i = 0; i < collection.length; i++) {
    a = Math.imul(a ^ collection.charCodeAt(i), 0x01000193);
    b = Math.imul(b ^ collection.charCodeAt(i), 0x5bd1e995);
    b ^= b >>> 15;
  }
  // A separator, so that ("ab", "c") and ("a", "bc") differ.
  a = Math.imul(a ^ 0xff, 0x01000193);
  b = Math.imul(b ^ 0xff, 0x5bd1e995);
  for (let i = 0; i < id.length; i++) {
    a = Math.imul(a ^ id.charCodeAt(i), 0x01000193);
    b = Math.imul(b ^ id.charCodeAt(i), 0x5bd1e995);
    b ^= b >>> 15;
  }
  // An odd step visits distinct bits on each probe.
  return [a >>> 0, (b | 1) >>> 0];
}
