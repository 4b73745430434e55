import { describe, expect, it } from "vitest";
import { IdSet } from "./import.ids.ts";

describe("IdSet", () => {
  it("holds exactly the ids added, on both sides of the bit limit and past its first size", () => {
    const ids = new IdSet();
    const added = [0, 1, 7, 8, 32_767, 32_768, 2_000_000, 2 ** 27 - 1, 2 ** 27, 2 ** 40, Number.MAX_SAFE_INTEGER, -1];
    for (const id of added) ids.add(id);
    for (const id of added) expect(ids.has(id), String(id)).toBe(true);
    for (const id of [2, 6, 9, 32_766, 32_769, 1_999_999, 2_000_001, 2 ** 27 - 2, 2 ** 27 + 1, 2 ** 40 + 1, -2]) {
      expect(ids.has(id), String(id)).toBe(false);
    }
  });

  it("agrees with a Set over a dense run of ids", () => {
    const ids = new IdSet();
    const reference = new Set<number>();
    for (let id = 1; id <= 200_000; id += 3) {
      ids.add(id);
      reference.add(id);
    }
    for (let id = 0; id <= 200_010; id++) expect(ids.has(id)).toBe(reference.has(id));
    // 200,011 assertions: a bound for a busy machine, not a speed target.
  }, 30_000);
});
