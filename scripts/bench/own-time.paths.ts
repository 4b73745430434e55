// What the own-time worker (own-time.worker.ts) and its runner (own-time.ts) agree on.
export const OWN_TIME_PATH = "/__bench/own-time";
/** The floors' work (scripts/bench/floors.ts), run in the same loop as the API's requests. */
export const FLOOR_TARGETS = { constant: "floor:constant", "one query": "floor:select1" } as const;
export type FloorName = keyof typeof FLOOR_TARGETS;
/** A page's statement alone, sent to D1 as the page sends it: the first 10 customers, or a phone's first 10 orders. */
export const STATEMENT_TARGETS = {
  customers: "statement:customers",
  orders: (phone: string) => `statement:orders:${phone}`,
} as const;
