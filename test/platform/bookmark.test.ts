// X-D1-Bookmark from clients (docs/specification.md section 6): used only when it has the shape of a
// D1 bookmark, any other value is as if not sent, and a bookmark that D1 refuses is read again once
// without it. No bookmark ever gives a 5xx. The D1 below is the real local one, wrapped only to see
// the constraints that reach withSession() and to inject D1's refusal (test/helpers/faults.ts).
import { beforeAll, describe, expect, it } from "vitest";
import { isD1Bookmark } from "../../src/platform/lib/d1-bookmark.ts";
import { BOOKMARK_FAULT, callWithEnv, refusingBookmarksD1 } from "../helpers/faults.ts";
import { call, type CallResult } from "../helpers/http.ts";
import { clearIsolateCaches, makeKey } from "../helpers/api-keys.ts";
import { seedFixture } from "../helpers/seed.ts";
import { workOf } from "../helpers/timing-header.ts";

const PATH = "/api/customers?count=2";
let key: string;
/** The answer to PATH without any bookmark. */
let plain: CallResult;

beforeAll(async () => {
  await seedFixture();
  key = (await makeKey()).secret;
  plain = await call(PATH, { key });
  expect(plain.status).toBe(200);
});

/** The whole answer that matters here: status, body, the bookmark given back, the D1 work. */
function answerOf(res: CallResult) {
  const bookmark = res.headers.get("X-D1-Bookmark");
  return { status: res.status, text: res.text, bookmarkShaped: isD1Bookmark(bookmark), work: workOf(res) };
}

const PLAIN_ANSWER = () => ({ status: 200, text: plain.text, bookmarkShaped: true, work: { d1: 1, kv: 0 } });

describe("a bookmark that D1 made", () => {
  it("has the shape the service accepts, and is handed to D1 when sent back", async () => {
    const bookmark = plain.headers.get("X-D1-Bookmark");
    expect(isD1Bookmark(bookmark)).toBe(true);
    const d1 = refusingBookmarksD1("never");
    await call(PATH, { key }); // the key is in this isolate's cache: no KV read below
    const res = await callWithEnv({ DB: d1 }, PATH, { key, headers: { "X-D1-Bookmark": bookmark! } });
    expect(answerOf(res)).toEqual(PLAIN_ANSWER());
    expect(d1.constraints).toEqual([bookmark]);
  });
});

describe("a value without a bookmark's shape", () => {
  it.each([
    "first-primary",
    "first-unconstrained",
    "zzz",
    "not a bookmark",
    "00000000",
    "00000000-0000000g",
    "00000000--00000001",
    `00000000-${"0".repeat(300)}`,
    "<b>00000000-00000001</b>",
  ])("%j is ignored: read as without one, and never echoed", async (value) => {
    clearIsolateCaches();
    await call(PATH, { key });
    const d1 = refusingBookmarksD1("never");
    const res = await callWithEnv({ DB: d1 }, PATH, { key, headers: { "X-D1-Bookmark": value } });
    expect(answerOf(res)).toEqual(PLAIN_ANSWER());
    expect(res.headers.get("X-D1-Bookmark")).not.toBe(value);
    expect(d1.constraints).toEqual(["first-unconstrained"]);
  });
});

describe("a well-shaped bookmark that D1 refuses", () => {
  const refusedBookmark = "00000001-00000002-00004e2b-0123456789abcdef0123456789abcdef";

  it.each(["open", "query"] as const)(
    "refused at %s: read once more without it, 200 with the same answer",
    async (when) => {
      await call(PATH, { key });
      const d1 = refusingBookmarksD1(when);
      const res = await callWithEnv({ DB: d1 }, PATH, { key, headers: { "X-D1-Bookmark": refusedBookmark } });
      expect(answerOf(res)).toEqual(PLAIN_ANSWER());
      expect(res.text).not.toContain(BOOKMARK_FAULT);
      expect(d1.constraints).toEqual([refusedBookmark, "first-unconstrained"]);
    },
  );

  it.each(["/api/orders?phone_number=9820000001", "/api/postalcodes?code=400069", "/api/salesagents"])(
    "%s: never a 5xx, the same answer as without it",
    async (path) => {
      clearIsolateCaches();
      const without = await call(path, { key });
      clearIsolateCaches();
      const res = await callWithEnv({ DB: refusingBookmarksD1("query") }, path, {
        key,
        headers: { "X-D1-Bookmark": refusedBookmark },
      });
      expect({ status: res.status, text: res.text }).toEqual({ status: 200, text: without.text });
    },
  );
});
