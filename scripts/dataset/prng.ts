// A small seeded PRNG (sfc32, seeded through splitmix32) so that the same arguments always give the
// same dataset, on any machine and Node version (Math.random cannot be seeded).

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    let s = seed >>> 0;
    const next = () => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.next();
  }

  /** A float in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) >>> 0;
    return t / 4294967296;
  }

  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("pick from an empty list");
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** One of the values, chosen with the given relative weights (weights[i] for values[i]). */
  weighted<T>(values: readonly T[], weights: readonly number[]): T {
    let r = this.next() * weights.reduce((sum, w) => sum + w, 0);
    for (let i = 0; i < values.length; i++) {
      r -= weights[i]!;
      if (r < 0) return values[i]!;
    }
    return values[values.length - 1]!;
  }

  /** `count` distinct items (fewer if the list is shorter), in random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    const out: T[] = [];
    while (out.length < count && pool.length > 0) {
      const i = Math.floor(this.next() * pool.length);
      out.push(pool[i]!);
      pool[i] = pool[pool.length - 1]!;
      pool.pop();
    }
    return out;
  }

  letters(count: number): string {
    let s = "";
    for (let i = 0; i < count; i++) s += String.fromCharCode(65 + this.int(0, 25));
    return s;
  }

  digits(count: number): string {
    let s = "";
    for (let i = 0; i < count; i++) s += String(this.int(0, 9));
    return s;
  }
}
