// One sync answer (section 8): the next records' keys (the walk, then the log), their JSON text read in slices
// (sync.slices.ts), spliced in order within the answer's limits.
import type { Database } from "../platform/db/database.ts";
import { runBatch } from "../platform/db/compiled.ts";
import { errors } from "../platform/errors.ts";
import { encodeSyncCursor, RECORD_SHAPE, type LogPosition, type SyncCursor, type WalkPosition } from "./sync.cursor.ts";
import { firstBatch } from "./sync.access.ts";
import { ENVELOPE_BYTES, MAX_BODY_BYTES, Slices, type Step, type WalkKey } from "./sync.slices.ts";
import { lastSeqStatement, type LogEntry, logStatement, purgeMarkStatement, walkStatements } from "./sync.queries.ts";

/** An answer with each change as the JSON text that goes into the body: serialized once, when measured. */
export interface SyncAnswer {
  changes: string[];
  next_cursor: string;
  has_more: boolean;
}

/** The body: byte for byte what JSON.stringify makes of `{ data: { changes, next_cursor, has_more } }`. */
export function answerJson({ changes, next_cursor, has_more }: SyncAnswer): string {
  return `{"data":{"changes":[${changes.join(",")}],"next_cursor":${JSON.stringify(next_cursor)},"has_more":${has_more}}}`;
}

export interface SyncRequest {
  book: number;
  /** The book was named by a key bound to no agent: its agent's existence is read in the first batch. */
  checkAgent: boolean;
  /** Null on a first sync. */
  cursor: SyncCursor | null;
  /** The cursor as sent, so that a caught-up answer hands back the very same text. */
  cursorText: string | undefined;
  limit: number;
}

/** The answer to one request. */
export async function readChanges(db: Database, request: SyncRequest): Promise<SyncAnswer> {
  const { book, checkAgent, cursor, cursorText, limit } = request;
  const position = cursor?.position ?? null;
  let walk: Walk | null = null;
  let log: Log | null = null;
  if (position?.kind === "log") {
    const [purge, entries] = await firstBatch(db, book, checkAgent, [
      purgeMarkStatement(book),
      logStatement(book, position.seq, limit + 1),
    ]);
    expireBelow(purge[0]?.mark ?? 0, position.seq);
    log = { after: position.seq, entries, fetched: limit + 1 };
  } else {
    const after = position ?? { customer: 0, order: 0, date: "" };
    const [purge, last, rest, next] = await firstBatch(db, book, checkAgent, [
      purgeMarkStatement(book),
      lastSeqStatement(book),
      ...walkStatements(book, after, limit + 1),
    ]);
    const purgeMark = purge[0]?.mark ?? 0;
    if (position) expireBelow(purgeMark, position.start);
    // Pinned at the book's highest seq when the walk began (at least the purge mark): later changes follow it.
    const start = position?.start ?? Math.max(last[0]?.seq ?? 0, purgeMark);
    walk = { start, ...walkKeys(after, rest, next, limit) };
    if (walk.complete && walk.keys.length < limit) {
      const room = limit - walk.keys.length + 1;
      const [entries] = await runBatch(db, [logStatement(book, start, room)]);
      log = { after: start, entries, fetched: room };
    }
  }

  // The log's last entry fetched may only tell that there is more: its records are not read.
  const steps: Step[] = [
    ...(walk?.keys.slice(0, limit) ?? []).map((key) => ({ key })),
    ...(log ? readable(log) : []).map((entry) => ({ entry })),
  ];
  return await assemble({ book, cursor, cursorText, limit, walk, log, records: new Slices(db, book, steps) });
}

type Walk = { start: number; keys: WalkKey[]; complete: boolean };
/** The entries after `after`: `fetched` asked for, one more than the answer may use. */
type Log = { after: number; entries: LogEntry[]; fetched: number };

const readable = (log: Log) => log.entries.slice(0, log.fetched - 1);

function expireBelow(purgeMark: number, from: number) {
  if (from < purgeMark) {
    throw errors.syncExpired(
      "This cursor is below its book's purge mark: deletes that it would need were purged. Sync again without a cursor, then drop every record that this sync did not deliver.",
    );
  }
}

/** The walk's keys in order: the rest of the last customer's orders, then each next customer and its orders. */
function walkKeys(
  after: { customer: number; order: number; date: string },
  rest: { orderId: number; date: string }[],
  next: { customerId: number | null; orderId: number | null; date: string | null }[],
  limit: number,
): { keys: WalkKey[]; complete: boolean } {
  const keys: WalkKey[] = rest.map((r) => ({ type: "order", id: r.orderId, customerId: after.customer, date: r.date }));
  // Past a cut-off rest, the next customers do not follow on from it.
  if (rest.length > limit) return { keys, complete: false };
  let previous: number | null = null;
  for (const row of next) {
    const customerId = row.customerId!;
    if (customerId !== previous) keys.push({ type: "customer", id: customerId, customerId, date: "" });
    previous = customerId;
    if (row.orderId !== null) keys.push({ type: "order", id: row.orderId, customerId, date: row.date! });
  }
  return { keys, complete: next.length <= limit };
}

/** A change as JSON.stringify writes `{ type, id, op, data }`, its record's text spliced in. */
function changeText(type: "customer" | "order", id: number, data: string | null): string {
  return `{"type":"${type}","id":${id},"op":"${data === null ? "delete" : "upsert"}","data":${data ?? "null"}}`;
}

/** A change of the answer: its key in `sent`, and its text. */
interface ChangeText {
  key: string;
  text: string;
}

interface Assembly {
  book: number;
  cursor: SyncCursor | null;
  cursorText: string | undefined;
  limit: number;
  walk: Walk | null;
  log: Log | null;
  records: Slices;
}

/** Why an answer ends before its keys do: full, or a record that changed between the two reads. */
class Full extends Error {}

async function assemble({ book, cursor, cursorText, limit, walk, log, records }: Assembly): Promise<SyncAnswer> {
  const changes: string[] = [];
  const sent = new Set<string>();
  let bytes = ENVELOPE_BYTES;
  let position: WalkPosition | LogPosition = cursor?.position ?? {
    kind: "walk",
    start: walk?.start ?? 0,
    customer: 0,
    order: 0,
    date: "",
  };
  let hasMore = false;

  // Adds changes that must stay together (a customer sent first, then its order), or throws Full.
  const add = (...group: ChangeText[]) => {
    if (changes.length + group.length > limit && changes.length > 0) throw new Full();
    const size = group.reduce((sum, change) => sum + utf8Length(change.text) + 1, 0);
    if (bytes + size > MAX_BODY_BYTES && changes.length > 0) throw new Full();
    bytes += size;
    for (const change of group) {
      changes.push(change.text);
      sent.add(change.key);
    }
  };
  const change = (type: "customer" | "order", id: number, data: string | null): ChangeText => ({
    key: `${type}:${id}`,
    text: changeText(type, id, data),
  });
  const customerUpsert = (id: number): ChangeText | null => {
    const row = records.customers.get(id);
    return row ? change("customer", id, row.json) : null;
  };

  let step = 0;
  // The records of the next step, read with its slice when it is the first of one.
  const read = () => records.through(step++, { changes: changes.length, bytes });

  try {
    if (walk) {
      for (const key of walk.keys.slice(0, limit)) {
        await read();
        if (key.type === "customer") {
          const change = customerUpsert(key.id);
          // Gone from the book since its key was read: its delete is in the log after the walk.
          if (change) add(change);
        } else {
          const order = records.orders.get(key.id);
          if (order && order.customerId !== key.customerId) throw new Full();
          if (order) add(change("order", key.id, order.text));
        }
        position = {
          kind: "walk",
          start: walk.start,
          customer: key.customerId,
          order: key.type === "order" ? key.id : 0,
          date: key.date,
        };
      }
      if (!walk.complete || walk.keys.length > limit) throw new Full();
      position = { kind: "log", seq: walk.start };
      if (!log) throw new Full();
    }
    if (log) {
      for (const entry of readable(log)) {
        if (changes.length >= limit) throw new Full();
        await read();
        const type = entry.kind === "customer" ? "customer" : "order";
        if (!sent.has(`${type}:${entry.recordId}`)) {
          if (type === "customer") {
            add((entry.deleted ? null : customerUpsert(entry.recordId)) ?? change(type, entry.recordId, null));
          } else {
            const order = entry.deleted ? undefined : records.orders.get(entry.recordId);
            if (!order) add(change(type, entry.recordId, null));
            else {
              if (order.customerId !== entry.customerId) throw new Full();
              const upsert = change(type, entry.recordId, order.text);
              // Ordered: a customer changed since the cursor and not sent yet comes first.
              const customerNewer = entry.customerSeq !== null && entry.customerSeq > log.after;
              if (customerNewer && !sent.has(`customer:${order.customerId}`)) {
                const customer = customerUpsert(order.customerId);
                if (!customer) throw new Full();
                add(customer, upsert);
              } else add(upsert);
            }
          }
        }
        position = { kind: "log", seq: entry.seq! };
      }
      hasMore = log.entries.length >= log.fetched;
    }
  } catch (err) {
    if (!(err instanceof Full)) throw err;
    hasMore = true;
  }

  const unchanged = cursor !== null && cursorText !== undefined && samePosition(cursor.position, position);
  const next = unchanged ? cursorText : encodeSyncCursor({ book, shape: RECORD_SHAPE, position });
  return { changes, next_cursor: next, has_more: hasMore };
}

function samePosition(a: WalkPosition | LogPosition, b: WalkPosition | LogPosition): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

const encoder = new TextEncoder();
function utf8Length(text: string): number {
  return encoder.encode(text).length;
}
