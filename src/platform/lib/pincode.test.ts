import { expect, it } from "vitest";
import { isPincode } from "./pincode.ts";

it.each(["400069", "110001", "560034", "999999", "100000"])("accepts %s", (pin) => {
  expect(isPincode(pin)).toBe(true);
});

it.each(["040069", "000000", "40006", "4000690", "40 069", "40006a", "", " 400069", "400069 ", "４00069"])(
  "rejects %j",
  (pin) => {
    expect(isPincode(pin)).toBe(false);
  },
);
