// What the app does with the service: enrollment, the send-then-sync run (outbox in order, then the
// book), rotation through the client's helper, and the stop on a refused key (docs/field-app.md).
import {
  createClient,
  EnrollmentError,
  exchangeEnrollmentCode,
  keyRotation,
  sync,
  SyncError,
  type RotatedKey,
} from "./service.ts";
import {
  type Db,
  enrollKey,
  getCustomer,
  getMeta,
  IdbSyncStore,
  isRefused,
  markRefused,
  outbox,
  putOutbox,
  removeOutbox,
  setMeta,
} from "./store.ts";
import type { Area, OutboxEntry, ShopParams, StoredKey } from "./types.ts";

const SYNC_PAGE = 1000;
const AREAS_EVERY_MS = 6 * 60 * 60 * 1000;
export const KEY_REFUSED = "This phone's key no longer works: ask the office for a new code";
export const STORAGE_FULL = "The phone's storage is full: what is stored is kept.";

/** The service's own words from an error envelope, or a plain sentence: never a raw body. */
async function describe(res: Response): Promise<string> {
  const body = (await res.json().catch(() => null)) as {
    error?: { description?: string; fields?: { field: string; message: string }[] };
  } | null;
  const description = body?.error?.description;
  return typeof description === "string" && description ? description : `The service answered ${res.status}.`;
}

export class KeyRefused extends Error {}
/** A 401 for a key that an enrollment replaced while the request was out: the run starts again with the new one. */
class KeyReplaced extends Error {}
/** The service could not take a shop now (a limit, a fault): sent again later, in order. */
class SendRefused extends Error {}

export interface Events {
  /** What changed: the book (and the outbox with it), or only the status line. */
  changed(what: "book" | "status"): void;
}

export class Engine {
  private running: Promise<void> | null = null;
  private again = false;
  status = "";

  constructor(
    readonly db: Db,
    private readonly events: Events,
    readonly base = location.origin,
  ) {}

  key(): Promise<StoredKey | undefined> {
    return getMeta(this.db, "key");
  }

  /** Exchanges a code; the same agent keeps the book and the outbox, another agent's book replaces it. */
  async enroll(code: string): Promise<void> {
    const device = navigator.userAgent.match(/\(([^;)]+)/)?.[1]?.trim() ?? "browser";
    let key;
    try {
      ({ key } = await exchangeEnrollmentCode(this.base, code.trim(), device));
    } catch (error) {
      if (error instanceof EnrollmentError) throw new Error(error.message, { cause: error });
      throw new Error("The code could not be sent: check the network and try again.", { cause: error });
    }
    await enrollKey(this.db, { id: key.id, secret: key.secret, agent_id: key.agent_id, name: key.name });
    this.events.changed("book");
  }

  /** The fetch of every API call: the current key, rotated when the service asks, written before use. */
  private async session() {
    const key = await this.key();
    if (!key) return null;
    // The ids this session's requests go with: the key, and its successor once rotated.
    const used = [key.id];
    const rotation = keyRotation(this.base, {
      secret: key.secret,
      store: async (next: RotatedKey) => {
        await setMeta(this.db, "key", { ...key, id: next.id, secret: next.secret });
        used.push(next.id);
      },
    });
    const send = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const res = await rotation.fetch(input, init);
      if (res.status === 401) {
        await res.body?.cancel();
        if (await markRefused(this.db, used)) throw new KeyRefused(KEY_REFUSED);
        throw new KeyReplaced();
      }
      return res;
    };
    return { key, send, api: createClient(this.base, key.secret, { fetch: send }) };
  }

  /** Sends the outbox, then syncs; one run at a time in this tab and across tabs. */
  run(): Promise<void> {
    if (this.running) {
      // Asked during a run (Sync now, the network back): once more when it ends, for what came since.
      this.again = true;
      return this.running;
    }
    this.running = navigator.locks
      .request("order-lookup-run", () => this.runOnce())
      .finally(() => {
        this.running = null;
        this.events.changed("status");
        if (this.again) {
          this.again = false;
          void this.run();
        }
      });
    return this.running;
  }

  private async runOnce(): Promise<void> {
    if (await isRefused(this.db)) return;
    const session = await this.session();
    if (!session) return;
    if (!navigator.onLine) {
      this.status = "";
      return;
    }
    try {
      this.status = "Sending and syncing...";
      this.events.changed("status");
      // A send that fails on the network stops the sending (the order is kept) but not the sync.
      const unsent = await this.sendOutbox(session.send).then(
        () => null,
        (error: unknown) => {
          if (error instanceof KeyRefused || error instanceof KeyReplaced) throw error;
          return error;
        },
      );
      // 1,000 records an answer (the most the service gives): on a 2-second round trip, each answer
      // fewer is seconds saved (docs/performance.md, "The field app").
      await sync(session.api, new IdbSyncStore(this.db, () => this.events.changed("book")), { limit: SYNC_PAGE });
      // Caught up, a 304 included (it applies no answer).
      await setMeta(this.db, "lastSync", new Date().toISOString());
      await this.keepLookups(session.send);
      await this.settleConflicts();
      this.status = unsent ? this.explain(unsent) : "";
    } catch (error) {
      if (error instanceof KeyReplaced) {
        this.status = "";
        this.again = true;
        return;
      }
      this.status = this.explain(error);
    }
  }

  private explain(error: unknown): string {
    if (error instanceof KeyRefused) return KEY_REFUSED;
    if (error instanceof SyncError) {
      const description = (error.body as { error?: { description?: string } } | null)?.error?.description;
      return description ?? `The service answered ${error.status}; the book is kept as it was.`;
    }
    if (error instanceof DOMException && error.name === "QuotaExceededError") {
      return `${STORAGE_FULL} Free some space on the phone to sync again.`;
    }
    if (error instanceof SendRefused) return `A shop could not be sent yet: ${error.message}`;
    return "The service could not be reached; the book is kept and will catch up later.";
  }

  /** Each waiting shop in the order made; a refused one keeps its place and does not hold back the rest. */
  private async sendOutbox(send: (input: string, init?: RequestInit) => Promise<Response>): Promise<void> {
    for (const entry of await outbox(this.db)) {
      if (entry.state !== "waiting" || entry.seq === undefined) continue;
      const params = await this.withPostalCode(entry, send);
      if (!params) continue;
      const { pincode: _pincode, ...body } = params;
      const res = await send(`${this.base}/api/customers/create`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Idempotency-Key": entry.idempotencyKey },
        body: JSON.stringify(body),
      });
      if (res.status === 200 || res.status === 201) {
        await removeOutbox(this.db, entry.seq);
      } else if (res.status === 409 || res.status === 422) {
        const body = await res
          .clone()
          .json()
          .catch(() => null);
        const conflictWith = (body as { error?: { customer_id?: number } } | null)?.error?.customer_id;
        await putOutbox(this.db, { ...entry, params, state: "refused", problem: await describe(res), conflictWith });
      } else {
        // Anything else (a limit, a fault) is for later, in the same order.
        throw new SendRefused(await describe(res));
      }
      this.events.changed("book");
    }
  }

  /**
   * A 409 naming a customer of this book that is the shop itself, field for field: an earlier send of it
   * whose answer was lost (under a key since replaced). The shop is made; its wait ends.
   */
  private async settleConflicts(): Promise<void> {
    for (const entry of await outbox(this.db)) {
      if (entry.state !== "refused" || entry.conflictWith === undefined || entry.seq === undefined) continue;
      const made = await getCustomer(this.db, entry.conflictWith);
      const p = entry.params;
      const address = made && !Array.isArray(made.address) ? made.address : null;
      if (
        made &&
        address &&
        made.company_name === p.company_name.trim() &&
        made.contact_person_name === p.contactpersons_name.trim() &&
        made.contactperson_number === p.mobile_number.trim() &&
        address.addressline1 === p.address.trim() &&
        address.area.id === p.area_id &&
        address.postalcode.code === p.pincode
      ) {
        await removeOutbox(this.db, entry.seq);
      }
    }
  }

  /** The postal code id of a PIN code saved offline, looked up before the shop is sent. */
  private async withPostalCode(entry: OutboxEntry, send: (input: string) => Promise<Response>) {
    if (entry.params.postalcode_id !== null) return entry.params;
    const id = await this.lookUpPincode(entry.params.pincode, send);
    if (id === null) {
      await putOutbox(this.db, {
        ...entry,
        state: "refused",
        problem: `PIN code ${entry.params.pincode} is unknown to the service.`,
      });
      return null;
    }
    const params: ShopParams = { ...entry.params, postalcode_id: id };
    await putOutbox(this.db, { ...entry, params });
    return params;
  }

  private async lookUpPincode(code: string, send: (input: string) => Promise<Response>): Promise<number | null> {
    const res = await send(`${this.base}/api/postalcodes?code=${encodeURIComponent(code)}`);
    if (res.status !== 200) throw new Error(await describe(res));
    const { data } = (await res.json()) as { data: { postalcodes: { id: number; code: string }[] } };
    const found = data.postalcodes[0];
    if (!found) return null;
    const known = (await getMeta(this.db, "postalcodes")) ?? {};
    await setMeta(this.db, "postalcodes", { ...known, [code]: found.id });
    return found.id;
  }

  /** A PIN code's postal code id: known on the phone, else asked when online; null when unknown. */
  async postalCodeId(code: string): Promise<number | null | "offline"> {
    const known = (await getMeta(this.db, "postalcodes")) ?? {};
    if (known[code] !== undefined) return known[code];
    const session = await this.session();
    if (!session || !navigator.onLine) return "offline";
    try {
      return await this.lookUpPincode(code, session.send);
    } catch {
      return "offline";
    }
  }

  /** The areas for the new shop form, kept for offline use (the book's PIN codes are kept as it syncs). */
  private async keepLookups(send: (input: string) => Promise<Response>): Promise<void> {
    // Areas change rarely: asked at most every few hours, so that an idle check stays one request.
    const asked = await getMeta(this.db, "areasAt");
    const res = asked && Date.now() - Date.parse(asked) < AREAS_EVERY_MS ? null : await send(`${this.base}/api/area`);
    if (res?.status === 200) {
      const { data } = (await res.json()) as { data: Area[] };
      await setMeta(
        this.db,
        "areas",
        data.map((a) => ({ id: a.id, name: a.name })),
      );
      await setMeta(this.db, "areasAt", new Date().toISOString());
    }
  }

  /** Queues a shop with its Idempotency-Key made now, then sends it at once when online. */
  async save(params: ShopParams, replacing?: OutboxEntry): Promise<void> {
    const key = await this.key();
    const same = replacing && JSON.stringify(replacing.params) === JSON.stringify(params);
    const entry: OutboxEntry = {
      ...(replacing?.seq === undefined ? {} : { seq: replacing.seq }),
      idempotencyKey: same ? replacing.idempotencyKey : crypto.randomUUID(),
      params,
      agentId: key?.agent_id ?? null,
      state: "waiting",
      savedAt: replacing?.savedAt ?? new Date().toISOString(),
    };
    // A full phone throws here (QuotaExceededError): the caller keeps the form and says so.
    await putOutbox(this.db, entry);
    this.events.changed("book");
    void this.run();
  }
}
