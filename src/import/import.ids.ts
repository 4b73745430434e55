// The ids an import has seen, per kind: one bit per id below 2^27 (at most 16 MiB, grown as larger ids come), a Set
// beyond. A Set of two million orders and two million invoices held about 80 MB.
const BIT_LIMIT = 2 ** 27;

export class IdSet {
  private bits = new Uint8Array(1 << 12);
  private readonly others = new Set<number>();

  has(id: number): boolean {
    if (!IdSet.small(id)) return this.others.has(id);
    const byte = id >>> 3;
    return byte < this.bits.length && (this.bits[byte]! & (1 << (id & 7))) !== 0;
  }

  add(id: number): void {
    if (!IdSet.small(id)) {
      this.others.add(id);
      return;
    }
    const byte = id >>> 3;
    if (byte >= this.bits.length) {
      const grown = new Uint8Array(Math.min(BIT_LIMIT / 8, Math.max(this.bits.length * 2, byte + 1)));
      grown.set(this.bits);
      this.bits = grown;
    }
    this.bits[byte]! |= 1 << (id & 7);
  }

  private static small(id: number): boolean {
    return Number.isInteger(id) && id >= 0 && id < BIT_LIMIT;
  }
}
