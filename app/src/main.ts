// The field app's screens (docs/specification.md section 10): enrollment, the book with its search,
// a customer, a new shop, the waiting shops and the status line. Plain DOM; the data is in store.ts,
// what goes to the service in engine.ts.
import { h } from "./dom.ts";
import { Engine, KEY_REFUSED, STORAGE_FULL } from "./engine.ts";
import { fold, matches, PAGE_ROWS, type Row } from "./search.ts";
import { checkMobile, gstinProblem } from "./service.ts";
import {
  type Db,
  getCustomer,
  getMeta,
  isRefused,
  openStore,
  ordersOf,
  readOpening,
  removeAll,
  removeOutbox,
  setMeta,
} from "./store.ts";
import type { OutboxEntry, ShopParams, StoredKey } from "./types.ts";

const SYNC_EVERY_MS = 5 * 60 * 1000;
const main = document.getElementById("main")!;
const statusText = document.getElementById("status-text")!;

let db: Db;
let engine: Engine;
let key: StoredKey | undefined;
let refused = false;
/** The book's list as IndexedDB keeps it: sorted, with each row's folded search text. */
let book: Row[] = [];
let waiting: OutboxEntry[] = [];
type View =
  { name: "book" } | { name: "customer"; id: number } | { name: "shop"; entry?: OutboxEntry } | { name: "remove" };
let view: View = { name: "book" };
/** The list's entries, shops waiting first, each with its item once built; the matches of the search; how many shown. */
let entries: ListEntry[] = [];
let found: ListEntry[] = [];
let limit = PAGE_ROWS;
let listParts: { list: HTMLUListElement; count: HTMLElement; more: HTMLButtonElement } | undefined;
let moreObserver: IntersectionObserver | undefined;
let query = "";
let enrollProblem = "";

const money = (n: number) => `₹${n.toLocaleString("en-IN", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/**
 * Counts the refreshes that draw screens. Refreshes overlap (the engine's events, the agent's clicks); one that a later
 * one has overtaken leaves the screen to it, since it read older data or drew a view the agent has left.
 */
let refreshes = 0;
/** A screen the agent asked for takes the focus when it is drawn (whichever refresh draws it). */
let focusNewScreen = false;

/** The key, the list and the outbox read again (one transaction), then the screen. */
async function refresh(what: "book" | "status" = "book"): Promise<void> {
  // A refusal (401) found by a run changes the screens too: the enrollment form comes.
  if (what === "status" && (await isRefused(db)) === refused) return renderStatus();
  const mine = ++refreshes;
  const opened = await readOpening(db);
  if (mine !== refreshes) return;
  ({ key, refused, list: book, waiting } = opened);
  await render(mine);
}

async function renderStatus(): Promise<void> {
  const [lastSync, persisted, keyRefused] = await Promise.all([
    getMeta(db, "lastSync"),
    getMeta(db, "persisted"),
    isRefused(db),
  ]);
  const parts = [navigator.onLine ? "Online" : "Offline"];
  parts.push(lastSync ? `caught up ${new Date(lastSync).toLocaleString("en-IN")}` : "not synced yet");
  const sendable = waiting.filter((w) => w.state === "waiting").length;
  parts.push(`${sendable} ${sendable === 1 ? "shop" : "shops"} waiting to be sent`);
  if (keyRefused) parts.push(KEY_REFUSED);
  else if (engine.status) parts.push(engine.status);
  if (persisted === false) parts.push("The browser may clear the book under storage pressure");
  statusText.textContent = parts.join(" · ");
}

function enrollForm(): HTMLElement {
  const input = h("input", { id: "code", name: "code", autocomplete: "off", spellcheck: "false" });
  return h(
    "form",
    {
      "aria-label": "Enroll this phone",
      onsubmit: (event) => {
        event.preventDefault();
        void enroll(input.value);
      },
    },
    h("label", { for: "code" }, "Enrollment code"),
    input,
    enrollProblem ? h("p", { class: "problem", role: "alert" }, enrollProblem) : null,
    h("div", { class: "row" }, h("button", { type: "submit", class: "primary" }, "Enroll this phone")),
  );
}

async function enroll(code: string): Promise<void> {
  enrollProblem = "";
  statusText.textContent = "Enrolling this phone...";
  try {
    await engine.enroll(code);
  } catch (error) {
    enrollProblem = (error as Error).message;
    await refresh();
    return;
  }
  // The code leaves the address bar at once.
  history.replaceState(null, "", "/app/");
  const persisted = navigator.storage?.persist ? await navigator.storage.persist().catch(() => false) : false;
  await setMeta(db, "persisted", persisted);
  view = { name: "book" };
  await refresh();
  await engine.run();
}

interface ListEntry {
  folded: string;
  /** A customer of the book, or a shop still waiting to be sent. */
  row?: Row;
  waiting?: OutboxEntry;
  li?: HTMLLIElement;
}

/** One customer of the list: built by hand, once for each row shown (and kept while the list is). */
function rowItem(r: Row): HTMLLIElement {
  const li = document.createElement("li");
  const button = document.createElement("button");
  button.type = "button";
  button.dataset.id = String(r.id);
  const title = document.createElement("span");
  title.textContent = r.title;
  const sub = document.createElement("span");
  sub.className = "sub";
  sub.textContent = r.sub;
  button.append(title, sub);
  li.appendChild(button);
  return li;
}

function waitingItem(p: ShopParams): HTMLLIElement {
  return h(
    "li",
    { class: "waiting" },
    h("span", {}, p.company_name),
    h("span", { class: "sub" }, `${p.contactpersons_name} · ${p.mobile_number} · waiting to be sent`),
  );
}

const itemOf = (e: ListEntry): HTMLLIElement => (e.li ??= e.row ? rowItem(e.row) : waitingItem(e.waiting!.params));

function bookScreen(): HTMLElement {
  entries = [];
  for (const entry of waiting) {
    if (entry.state === "confirm") continue;
    const p = entry.params;
    entries.push({
      waiting: entry,
      folded: fold([p.contactpersons_name, p.company_name, p.mobile_number].join("\u0000")),
    });
  }
  for (const row of book) entries.push({ row, folded: row.folded });
  const list = h("ul", {
    "aria-label": "Customers",
    "aria-describedby": "list-count",
    onclick: (event) => {
      const id = (event.target as Element).closest("button")?.dataset.id;
      if (id) void show({ name: "customer", id: Number(id) });
    },
  });
  const count = h("p", { id: "list-count", role: "status" });
  const more = h("button", { type: "button", onclick: () => showMore() });
  listParts = { list, count, more };
  filter();
  // Scrolling down to "Show more" shows more, as a click or Enter on it does.
  moreObserver?.disconnect();
  moreObserver = new IntersectionObserver((seen) => seen.some((s) => s.isIntersecting) && showMore(), {
    rootMargin: "0px 0px 600px 0px",
  });
  moreObserver.observe(more);
  const search = h("input", {
    id: "search",
    type: "search",
    autocomplete: "off",
    oninput: (event) => {
      query = fold((event.target as HTMLInputElement).value);
      limit = PAGE_ROWS;
      filter();
    },
  });
  search.value = query;
  return h(
    "section",
    { "aria-labelledby": "book-title" },
    h("h2", { id: "book-title" }, "The book"),
    h("label", { for: "search" }, "Search customers"),
    search,
    h(
      "div",
      { class: "row" },
      h("button", { type: "button", class: "primary", onclick: () => show({ name: "shop" }) }, "New shop"),
      h("button", { type: "button", onclick: () => show({ name: "remove" }) }, "Remove this phone's data"),
    ),
    outboxSection(),
    count,
    list,
    more,
  );
}

function showMore(): void {
  if (!listParts || found.length <= limit) return;
  limit += PAGE_ROWS;
  place(listParts.list, found.slice(0, limit).map(itemOf));
  stateCount();
}

/**
 * The search: the matches among every entry (their folded text made when stored), of which the first
 * PAGE_ROWS are in the list. Items stay built while the list is: a keystroke removes the rows that no
 * longer match and inserts the ones that now do, and lays out a few dozen rows at most.
 */
function filter(): void {
  if (!listParts) return;
  found = query === "" ? entries : entries.filter((e) => matches(e.folded, query));
  place(listParts.list, found.slice(0, limit).map(itemOf));
  stateCount();
}

function stateCount(): void {
  const { count, more } = listParts!;
  const total = `${entries.length} ${entries.length === 1 ? "customer" : "customers"}`;
  let text = query === "" ? total : `${found.length} of ${total} found`;
  if (found.length > limit) text += `, the first ${limit} shown`;
  count.textContent = text;
  more.hidden = found.length <= limit;
  more.textContent = `Show ${Math.min(PAGE_ROWS, found.length - limit)} more`;
}

/** The list's children made `wanted` (in its order) by the fewest moves: the rows kept are not touched. */
function place(list: HTMLElement, wanted: HTMLLIElement[]): void {
  const keep = new Set<Element>(wanted);
  for (const child of [...list.children]) if (!keep.has(child)) child.remove();
  let at = list.firstElementChild;
  for (const li of wanted) {
    if (li === at) at = at.nextElementSibling;
    else list.insertBefore(li, at);
  }
}

/** The benchmark's mark (docs/performance.md): the list painted, a frame after it is built. */
let opened = false;
function shown(): void {
  if (opened) return;
  opened = true;
  requestAnimationFrame(() => setTimeout(() => performance.mark("list-shown")));
}

/** The shops that cannot go by themselves: refused by the service, or saved under another agent. */
function outboxSection(): HTMLElement | null {
  const held = waiting.filter((w) => w.state !== "waiting");
  if (held.length === 0) return null;
  return h(
    "section",
    { "aria-labelledby": "held-title" },
    h("h2", { id: "held-title" }, "Shops that need you"),
    h(
      "ul",
      { "aria-label": "Shops that need you" },
      ...held.map((entry) =>
        h(
          "li",
          { class: "waiting" },
          h("span", {}, entry.params.company_name),
          h(
            "span",
            { class: "sub problem" },
            entry.state === "confirm"
              ? "Saved on this phone for another sales agent: send it to be this agent's customer, or discard it."
              : (entry.problem ?? ""),
          ),
          h(
            "div",
            { class: "row" },
            entry.state === "confirm"
              ? h("button", { type: "button", onclick: () => void send(entry) }, `Send ${entry.params.company_name}`)
              : h(
                  "button",
                  { type: "button", onclick: () => show({ name: "shop", entry }) },
                  `Correct ${entry.params.company_name}`,
                ),
            h(
              "button",
              { type: "button", onclick: () => void removeOutbox(db, entry.seq!).then(() => refresh()) },
              `Discard ${entry.params.company_name}`,
            ),
          ),
        ),
      ),
    ),
  );
}

async function customerScreen(id: number): Promise<HTMLElement> {
  const c = await getCustomer(db, id);
  const back = h("button", { type: "button", onclick: () => show({ name: "book" }) }, "Back to the book");
  if (!c) return h("section", {}, h("p", {}, "This customer is no longer in the book."), back);
  const orders = await ordersOf(db, id);
  const a = Array.isArray(c.address) ? null : c.address;
  const field = (name: string, value: string | null | undefined) => [h("dt", {}, name), h("dd", {}, value || "-")];
  return h(
    "section",
    { "aria-labelledby": "customer-title" },
    back,
    h("h2", { id: "customer-title" }, c.company_name),
    h(
      "dl",
      {},
      ...field("Contact", c.contact_person_name),
      ...field("Display name", c.display_name),
      ...field("Mobile", c.contactperson_number),
      ...field("Company phone", c.company_phone),
      ...field("Email", c.email),
      ...field("GST treatment", c.gst_treatment),
      ...field("GSTIN", c.gstin),
      ...field("Customer code", c.customer_code),
      ...field("Status", `${c.status}, ${c.approval}`),
      ...field(
        "Address",
        a
          ? [a.addressline1, a.addressline2, a.area.name, a.area.city.name, a.area.city.state.name, a.postalcode.code]
              .filter(Boolean)
              .join(", ")
          : null,
      ),
    ),
    h("h3", {}, `Orders (${orders.length})`),
    h(
      "ul",
      { "aria-label": "Orders" },
      ...orders.map((o) =>
        h(
          "li",
          {},
          h(
            "span",
            {},
            `${o.order_no} · ${o.date} · ${o.laststatus?.name ?? "no status"} · ${money(o.billable_amount)}`,
          ),
          h(
            "span",
            { class: "sub" },
            o.invoices.length
              ? `Invoices: ${o.invoices.map((i) => `${i.invoice_number} (${i.date}, ${money(i.invoice_amount)})`).join("; ")}`
              : "No invoices",
          ),
        ),
      ),
    ),
  );
}

/** The new-shop form of this view, built once: the book refreshed under it must not wipe what the agent typed. */
let shopForm: { view: View; form: HTMLElement } | undefined;

async function keptShopForm(current: Extract<View, { name: "shop" }>): Promise<HTMLElement> {
  if (shopForm?.view !== current) shopForm = { view: current, form: await shopScreen(current.entry) };
  return shopForm.form;
}

async function shopScreen(entry?: OutboxEntry): Promise<HTMLElement> {
  const areas = (await getMeta(db, "areas")) ?? [];
  const p = entry?.params;
  const input = (id: string, label: string, value = "", extra: Record<string, string> = {}) => [
    h("label", { for: id }, label),
    Object.assign(h("input", { id, name: id, required: true, ...extra }), { value }),
  ];
  const area = h(
    "select",
    { id: "area_id", name: "area_id", required: true },
    h("option", { value: "" }, areas.length ? "Choose an area" : "No areas stored yet: sync once online"),
    ...areas.map((a) => {
      const option = h("option", { value: String(a.id) }, a.name);
      option.selected = p?.area_id === a.id;
      return option;
    }),
  );
  const gst = h(
    "select",
    { id: "gst_treatment", name: "gst_treatment" },
    ...["Registered", "Unregistered"].map((t) => {
      const option = h("option", { value: t }, t);
      option.selected = (p?.gst_treatment ?? "Unregistered") === t;
      return option;
    }),
  );
  const problem = h("p", { class: "problem", role: "alert" }, entry?.problem ?? "");
  const form: HTMLFormElement = h(
    "form",
    {
      "aria-label": "New shop",
      novalidate: true,
      onsubmit: (event) => {
        event.preventDefault();
        void saveShop(form, problem, entry);
      },
    },
    ...input("company_name", "Company name", p?.company_name),
    ...input("contactpersons_name", "Contact person's name", p?.contactpersons_name),
    ...input("mobile_number", "Mobile number", p?.mobile_number, { inputmode: "tel", autocomplete: "off" }),
    ...input("address", "Address", p?.address),
    h("label", { for: "area_id" }, "Area"),
    area,
    ...input("pincode", "PIN code", p?.pincode, { inputmode: "numeric", maxlength: "6" }),
    h("label", { for: "gst_treatment" }, "GST treatment"),
    gst,
    ...input("gstin", "GSTIN (when registered)", p?.gstin, { required: "false", autocomplete: "off" }),
    problem,
    h(
      "div",
      { class: "row" },
      h("button", { type: "submit", class: "primary" }, "Save shop"),
      h("button", { type: "button", onclick: () => show({ name: "book" }) }, "Cancel"),
    ),
  );
  return form;
}

async function saveShop(form: HTMLFormElement, problem: HTMLElement, entry?: OutboxEntry): Promise<void> {
  const value = (name: string) => String(new FormData(form).get(name) ?? "").trim();
  const problems: string[] = [];
  for (const [name, label] of [
    ["company_name", "Company name"],
    ["contactpersons_name", "Contact person's name"],
    ["address", "Address"],
  ]) {
    if (!value(name!)) problems.push(`${label} must not be empty.`);
  }
  const mobile = checkMobile(value("mobile_number"));
  if ("problem" in mobile) problems.push(`Mobile number ${mobile.problem}.`);
  const areaId = Number(value("area_id"));
  if (!areaId) problems.push("Choose an area.");
  const pincode = value("pincode");
  if (!/^[1-9]\d{5}$/.test(pincode)) problems.push("PIN code must be 6 digits, not starting with 0.");
  const treatment = value("gst_treatment") === "Registered" ? "Registered" : "Unregistered";
  const gstin = treatment === "Registered" ? value("gstin").toUpperCase() : "";
  if (treatment === "Registered") {
    const wrong = gstinProblem(gstin);
    if (wrong) problems.push(`GSTIN ${wrong}.`);
  }
  let postalcodeId: number | null = null;
  if (problems.length === 0) {
    const found = await engine.postalCodeId(pincode);
    if (found === null) problems.push(`PIN code ${pincode} is unknown to the service.`);
    else if (found !== "offline") postalcodeId = found;
  }
  if (problems.length) {
    problem.textContent = problems.join(" ");
    return;
  }
  const params: ShopParams = {
    company_name: value("company_name"),
    contactpersons_name: value("contactpersons_name"),
    mobile_number: value("mobile_number"),
    address: value("address"),
    area_id: areaId,
    postalcode_id: postalcodeId,
    pincode,
    gst_treatment: treatment,
    gstin,
  };
  try {
    await engine.save(params, entry);
  } catch (error) {
    // Nothing was written: the form keeps what the agent typed.
    problem.textContent = storageProblem(error, "This shop was not saved");
    return;
  }
  view = { name: "book" };
  await refresh();
}

/** A shop saved under another agent, confirmed by this one: sent with its own Idempotency-Key. */
async function send(entry: OutboxEntry): Promise<void> {
  try {
    await engine.save(entry.params, entry);
  } catch (error) {
    engine.status = storageProblem(error, "It was not queued");
  }
  await refresh();
}

function storageProblem(error: unknown, what: string): string {
  if (error instanceof DOMException && error.name === "QuotaExceededError") return `${STORAGE_FULL} ${what}.`;
  return `${what}: the phone's storage could not be written.`;
}

function removeScreen(): HTMLElement {
  const held = waiting;
  return h(
    "section",
    { "aria-labelledby": "remove-title" },
    h("h2", { id: "remove-title" }, "Remove this phone's data"),
    h("p", {}, "This deletes the key, the book and every shop still waiting on this phone."),
    held.length
      ? h(
          "ul",
          { "aria-label": "Shops that will be lost" },
          ...held.map((w) => h("li", {}, `${w.params.company_name} (${w.params.mobile_number})`)),
        )
      : h("p", {}, "No shop is waiting to be sent."),
    h(
      "div",
      { class: "row" },
      h(
        "button",
        {
          type: "button",
          class: "primary",
          onclick: () => void removeAll(db).then(() => show({ name: "book" })),
        },
        "Remove everything",
      ),
      h("button", { type: "button", onclick: () => show({ name: "book" }) }, "Keep it"),
    ),
  );
}

async function show(next: View): Promise<void> {
  view = next;
  focusNewScreen = true;
  await refresh();
}

async function render(mine: number): Promise<void> {
  let read: HTMLElement | null = null;
  if (key && view.name === "customer") read = await customerScreen(view.id);
  else if (key && view.name === "shop") read = await keptShopForm(view);
  // Nothing of an overtaken refresh reaches the screen or the list's state.
  if (mine !== refreshes) return;
  moreObserver?.disconnect();
  listParts = undefined;
  const screens: (HTMLElement | null)[] = [];
  if (!key || refused) screens.push(enrollForm());
  if (key) screens.push(read ?? (view.name === "remove" ? removeScreen() : bookScreen()));
  const next = screens.filter((s): s is HTMLElement => s !== null);
  // The same screens (a sync or a send finished under the new-shop form): left in place, with what was typed.
  if (next.length === main.children.length && next.every((s, i) => s === main.children[i])) return renderStatus();
  const focused = document.activeElement?.id;
  main.replaceChildren(...next);
  if (focusNewScreen) main.querySelector<HTMLElement>("h2, input, button")?.focus();
  else if (focused) document.getElementById(focused)?.focus();
  focusNewScreen = false;
  if (view.name === "book") shown();
  await renderStatus();
}

async function start(): Promise<void> {
  db = await openStore();
  engine = new Engine(db, { changed: (what) => void refresh(what) });
  // The book first: nothing else is asked of the browser before the list is on screen.
  await refresh();
  document.getElementById("sync-now")!.addEventListener("click", () => void engine.run());
  addEventListener("online", () => void engine.run());
  addEventListener("offline", () => void renderStatus());
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/app/sw.js", { scope: "/app/" }).catch(() => {});
  const code = location.pathname === "/app/enroll" ? decodeURIComponent(location.hash.slice(1)) : "";
  if (code) await enroll(code);
  else await engine.run();
  setInterval(() => void engine.run(), SYNC_EVERY_MS);
}

void start();
