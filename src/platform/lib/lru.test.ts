import { describe, expect, it } from "vitest";
import { BoundedLru } from "./lru.ts";

describe("BoundedLru", () => {
  it("drops the least recently used entry when full, not the oldest inserted", () => {
    const lru = new BoundedLru<number>(3, 1_000);
    lru.set("a", 1, 0);
    lru.set("b", 2, 0);
    lru.set("c", 3, 0);
    expect(lru.get("a", 1)).toBe(1); // a is now the most recently used
    lru.set("d", 4, 2);
    expect([lru.get("a", 3), lru.get("b", 3), lru.get("c", 3), lru.get("d", 3)]).toEqual([1, undefined, 3, 4]);
    expect(lru.size).toBe(3);
  });

  it("never holds more than its size, whatever is written", () => {
    const lru = new BoundedLru<number>(100, 1_000);
    for (let i = 0; i < 10_000; i++) lru.set(`k${i}`, i, 0);
    expect(lru.size).toBe(100);
    expect(lru.get("k9999", 0)).toBe(9999);
    expect(lru.get("k9899", 0)).toBeUndefined();
  });

  it("forgets an entry at its time to live, and using it does not extend that", () => {
    const lru = new BoundedLru<string>(10, 1_000);
    lru.set("a", "x", 0);
    expect(lru.get("a", 999)).toBe("x");
    expect(lru.get("a", 1_000)).toBeUndefined();
    expect(lru.size).toBe(0);
  });

  it("replaces a value in place and deletes on request", () => {
    const lru = new BoundedLru<number>(2, 1_000);
    lru.set("a", 1, 0);
    lru.set("a", 2, 0);
    expect(lru.size).toBe(1);
    expect(lru.get("a", 0)).toBe(2);
    lru.delete("a");
    expect(lru.get("a", 0)).toBeUndefined();
    lru.set("b", 1, 0);
    lru.clear();
    expect(lru.size).toBe(0);
  });

  it("refuses a size that cannot hold anything", () => {
    expect(() => new BoundedLru(0, 1)).toThrow(RangeError);
  });
});
