import { describe, expect, it } from "vitest";
import {
  BASE62,
  digestsEqual,
  displayPrefix,
  hashSecret,
  KEY_ID_PATTERN,
  KEY_PATTERN,
  newKeyId,
  newSecret,
  randomBase62,
  SECRET_RANDOM_LENGTH,
} from "./keys.secret.ts";

describe("newSecret", () => {
  it("is sk_<mode>_ and 43 base62 characters", () => {
    for (const mode of ["test", "live"] as const) {
      const secret = newSecret(mode);
      expect(secret).toMatch(new RegExp(`^sk_${mode}_[0-9A-Za-z]{43}$`));
      expect(secret).toHaveLength(`sk_${mode}_`.length + SECRET_RANDOM_LENGTH);
      expect(KEY_PATTERN.exec(secret)?.[1]).toBe(mode);
    }
  });

  it("carries at least 256 bits", () => {
    expect(SECRET_RANDOM_LENGTH * Math.log2(62)).toBeGreaterThanOrEqual(256);
  });

  it("never repeats (10 000 secrets, 10 000 ids)", () => {
    const secrets = new Set(Array.from({ length: 10_000 }, () => newSecret("test")));
    expect(secrets.size).toBe(10_000);
    const ids = new Set(Array.from({ length: 10_000 }, () => newKeyId()));
    expect(ids.size).toBe(10_000);
    for (const id of [...ids].slice(0, 100)) expect(id).toMatch(KEY_ID_PATTERN);
  });
});

describe("randomBase62", () => {
  it("gives exactly the length asked for", () => {
    for (const n of [0, 1, 16, 43, 500]) expect(randomBase62(n)).toHaveLength(n);
  });

  it("uses the whole base62 alphabet evenly (no modulo bias)", () => {
    const counts = new Map<string, number>();
    const text = randomBase62(172_000);
    for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect([...counts.keys()].sort().join("")).toBe([...BASE62].sort().join(""));
    // Expected 2774 each, standard deviation about 52: +-10% is over five deviations, while taking
    // bytes modulo 62 without rejection would put the first eight characters 21% above the mean.
    const expected = text.length / 62;
    for (const [ch, n] of counts) {
      expect({ ch, ratio: Math.abs(n / expected - 1) < 0.1 }).toEqual({ ch, ratio: true });
    }
  });
});

describe("hashSecret", () => {
  it("is the lower-case hex SHA-256 of the text", async () => {
    expect(await hashSecret("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const secret = newSecret("live");
    const hash = await hashSecret(secret);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await hashSecret(secret)).toBe(hash);
    const changed = `${secret.slice(0, -1)}${secret.endsWith("x") ? "y" : "x"}`;
    expect(await hashSecret(changed)).not.toBe(hash);
  });
});

describe("displayPrefix", () => {
  it("shows the mode and four characters, never more of the secret", () => {
    expect(displayPrefix("sk_test_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefg")).toBe("sk_test_AbCd…");
    expect(displayPrefix("sk_live_0000111122223333444455556666777788889999aaa")).toBe("sk_live_0000…");
    const secret = newSecret("test");
    expect(displayPrefix(secret)).toBe(`${secret.slice(0, 12)}…`);
  });

  it("refuses what is not a key", () => {
    expect(() => displayPrefix("hello")).toThrow(TypeError);
  });
});

describe("digestsEqual", () => {
  it("compares whole digests", () => {
    expect(digestsEqual("ab12", "ab12")).toBe(true);
    expect(digestsEqual("ab12", "ab13")).toBe(false);
    expect(digestsEqual("ab12", "bb12")).toBe(false);
    expect(digestsEqual("ab12", "ab1")).toBe(false);
  });
});

describe("KEY_PATTERN", () => {
  it("accepts only the two prefixes and 32 to 128 base62 characters", () => {
    const body = "a".repeat(43);
    expect(KEY_PATTERN.test(`sk_test_${body}`)).toBe(true);
    expect(KEY_PATTERN.test(`sk_live_${"Z9".repeat(16)}`)).toBe(true);
    for (const bad of [
      `sk_prod_${body}`,
      `SK_TEST_${body}`,
      `sk_test_${"a".repeat(31)}`,
      `sk_test_${"a".repeat(129)}`,
      `sk_test_${body} `,
      ` sk_test_${body}`,
      `sk_test_${body}\n`,
      `sk_test_${body.slice(0, 20)} ${body.slice(20)}`,
      `sk_test_${body.slice(0, 42)}-`,
      `sk_test_${body.slice(0, 42)}é`,
    ]) {
      expect({ bad, ok: KEY_PATTERN.test(bad) }).toEqual({ bad, ok: false });
    }
  });
});
