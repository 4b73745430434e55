import { describe, expect, it } from "vitest";
import { clientBucket, SHARED_BUCKET } from "./client-address.ts";

describe("clientBucket", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:DB8:1:2::9", "2001:db8:1:2::/64"],
    ["2001:0db8:0001:0002:ffff::1", "2001:db8:1:2::/64"],
    ["2001:db8::", "2001:db8:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["::ffff:198.51.100.4", "198.51.100.4"],
    ["64:ff9b::192.0.2.33", "64:ff9b:0:0::/64"],
    [undefined, SHARED_BUCKET],
    ["", SHARED_BUCKET],
    ["not an address", SHARED_BUCKET],
    ["256.1.1.1", SHARED_BUCKET],
    ["1:2:3:4:5:6:7:8:9", SHARED_BUCKET],
    ["1::2::3", SHARED_BUCKET],
    ["12345::1", SHARED_BUCKET],
  ])("%s is counted as %s", (header, bucket) => {
    expect(clientBucket(header)).toBe(bucket);
  });
});
