// `npm run bench -- app` (docs/performance.md, "The field app"): the app's files gzip-compressed; then, in Chromium
// against `npm run dev` on a book of 300 customers, a first sync on 3G, a catch-up, idle checks, and, with the CPU
// slowed 4 times, opening offline and the search's keystrokes.
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { chromium, type CDPSession, type Page } from "playwright-core";
import type { Dataset, OrderRecord } from "../../src/import/importer.ts";
import { createBody } from "../../test/fixtures/create-body.ts";
import { customerRecord, oneAgentRecords, orderRecord } from "../../test/fixtures/dataset.ts";
import { buildApp } from "../app/build.ts";
import { createCustomers, type PerfRun } from "./harness.ts";
import { openBook } from "./sync.ts";

// The page's globals, in the functions that run in it (this module is compiled without the DOM's types).
declare const document: any;
declare const indexedDB: any;
type HTMLInputElement = any;

const CUSTOMERS = 300;
const ORDERS = 3000;
const THREE_G = { offline: false, latency: 2000, downloadThroughput: 400_000 / 8, uploadThroughput: 400_000 / 8 };

function book(): Dataset {
  const customers = Array.from({ length: CUSTOMERS }, (_, i) =>
    customerRecord(i + 1, {
      contactperson_number: `9${String(i + 1).padStart(9, "0")}`,
      gstin: null,
      area_id: 1,
      postalcode_id: 1,
    }),
  );
  const orders: OrderRecord[] = Array.from({ length: ORDERS }, (_, i) =>
    orderRecord(i + 1, (i % CUSTOMERS) + 1, { statuses: [{ name: "Placed", at: "2026-03-14T09:30:00Z" }] }),
  );
  return { ...oneAgentRecords(), customers, orders } as Dataset;
}

/** The page's requests, answers and bytes on the wire (encoded, headers included) since `reset()`. */
function wire(cdp: CDPSession) {
  const net = { requests: [] as string[], statuses: [] as string[], bytes: 0 };
  const path = (url: string) => new URL(url).pathname;
  cdp.on("Network.requestWillBeSent", (e) => net.requests.push(`${e.request.method} ${path(e.request.url)}`));
  cdp.on("Network.loadingFinished", (e) => (net.bytes += e.encodedDataLength));
  cdp.on("Network.responseReceived", (e) => net.statuses.push(`${path(e.response.url)} ${e.response.status}`));
  return Object.assign(net, { reset: () => Object.assign(net, { requests: [], statuses: [], bytes: 0 }) });
}

/** The list's count line: the whole book is in the list, and searchable, once it states every customer. */
const counted = (page: Page, n: number) =>
  page.waitForFunction(
    (n) => (document.getElementById("list-count")?.textContent ?? "").startsWith(`${n} customers`),
    n,
    { timeout: 300_000, polling: 100 },
  );
const untilIdle = (page: Page) =>
  page.waitForFunction(() => {
    const text = document.getElementById("status-text")?.textContent ?? "";
    return text.includes("caught up") && !text.includes("Sending and syncing");
  });

/** The app's marks of an open newer than `after` (its page's time origin), in ms from that page's start. */
async function untilMarks(cdp: CDPSession, after: number): Promise<{ origin: number; shown: number }> {
  const expression = `({ origin: performance.timeOrigin, shown: performance.getEntriesByName("list-shown")[0]?.startTime ?? -1 })`;
  for (let i = 0; i < 600; i++) {
    const marks = await cdp
      .send("Runtime.evaluate", { expression, returnByValue: true })
      .then((r) => r.result.value as { origin: number; shown: number })
      .catch(() => null);
    if (marks && marks.origin > after && marks.shown >= 0) return marks;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the app did not show its list within 60 s");
}

export async function fieldAppFigures(perf: PerfRun): Promise<string[]> {
  const files = await buildApp();
  const own = files.filter((f) => f.type !== "image/png");
  const gzip = own.reduce((sum, f) => sum + gzipSync(f.body).length, 0);
  const icons = files.filter((f) => f.type === "image/png").reduce((sum, f) => sum + f.body.length, 0);
  perf.step(
    `the app's own files: ${own.length}, ${(gzip / 1024).toFixed(1)} KB gzip-compressed (icons apart: ${icons} bytes)`,
  );

  const state = join(perf.dir, "app-state");
  const platform = await openBook(state, book());
  const { Enrollments } = await import("../../src/enroll/enroll.codes.ts");
  const { KeyStore } = await import("../../src/keys/keys.store.ts");
  const enrollments = new Enrollments(platform.env.DB, new KeyStore(platform.env.KEYS, platform.env.DB));
  const code = (await enrollments.create({ agent_id: 1, mode: "test" }, { actor: "cli" })).code;
  await platform.dispose();
  const api = await perf.serveApi("api-app", "dev", state);

  // A profile of its own in the run's folder.
  const context = await chromium.launchPersistentContext(join(perf.dir, "chromium-profile"), {
    executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    viewport: { width: 360, height: 740 },
  });
  const lines: string[] = [];
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    const net = wire(cdp);
    await cdp.send("Network.emulateNetworkConditions", THREE_G);

    // First sync on 3G, from the first request to the whole book in the list (its count line states every customer).
    const started = Date.now();
    await page.goto(`${api.url}/enroll#${code}`);
    await counted(page, CUSTOMERS);
    const firstSeconds = (Date.now() - started) / 1000;
    const firstRequests = net.requests.length;
    const untilBook = net.requests.filter((r) => !r.startsWith("GET /api/area")).length;
    lines.push(
      `- First sync on 3G (400 kbit/s, 2,000 ms round trip), ${CUSTOMERS} customers and ${ORDERS} orders: ` +
        `${firstSeconds.toFixed(1)} s from the first request to the whole book listed; ` +
        `${(net.bytes / 1024).toFixed(0)} KB on the wire in ${firstRequests} requests (${untilBook} before the book showed, ` +
        `page and files included).`,
    );
    await untilIdle(page);

    // A catch-up after 20 new records (customers made through the API with the app's own key).
    const secret = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const open = indexedDB.open("order-lookup-field-app");
          open.onsuccess = () => {
            const get = open.result.transaction("meta").objectStore("meta").get("key");
            get.onsuccess = () => resolve(get.result.secret);
          };
        }),
    );
    const bench = { contactpersons_name: "Bench", address: "1 Bench Road" };
    const bodies = Array.from({ length: 20 }, (_, i) =>
      createBody(`8${String(900_000_000 + i)}`, { company_name: `Catch-up Shop ${i}`, ...bench }),
    );
    await createCustomers(api.url, secret, bodies);
    net.reset();
    await page.getByRole("button", { name: "Sync now" }).click();
    await counted(page, CUSTOMERS + 20);
    await untilIdle(page);
    const syncs = net.statuses.filter((s) => s.startsWith("/api/sync"));
    lines.push(
      `- Catch-up after 20 new records: ${syncs.length} sync request(s) (${syncs.join(", ")}), ${(net.bytes / 1024).toFixed(1)} KB on the wire ` +
        `for the run's ${net.requests.length} requests (${net.requests.join(", ")}).`,
    );

    // Idle checks: nothing new. The first after changes gets the caught-up answer and its ETag; the next is a 304.
    for (const round of [1, 2]) {
      net.reset();
      await page.getByRole("button", { name: "Sync now" }).click();
      await page.waitForTimeout(500);
      await untilIdle(page);
      await page.waitForTimeout(4500);
      lines.push(`- Idle check ${round}: ${net.statuses.join(", ")}; ${(net.bytes / 1024).toFixed(1)} KB on the wire.`);
    }

    // CPU slowed 4 times, no network: opening to the list shown, then the search's keystrokes.
    const noThrottling = { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 };
    await cdp.send("Network.emulateNetworkConditions", noThrottling);
    await context.setOffline(true);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    // Timed by the app's own mark (the list painted with its count line), read through the
    // DevTools protocol: Playwright's waits would add its injected script to the very open measured.
    const opens: number[] = [];
    let origin = await page.evaluate(() => performance.timeOrigin);
    for (let i = 0; i < 5; i++) {
      await cdp.send("Page.reload");
      const marks = await untilMarks(cdp, origin);
      origin = marks.origin;
      opens.push(marks.shown);
    }
    opens.sort((a, b) => a - b);
    lines.push(
      `- Opening offline with the CPU slowed 4 times, to the list shown (its first ${await page.locator("ul[aria-label=Customers] li").count()} rows painted, ` +
        `"${await page.locator("#list-count").innerText()}" stated): median ${opens[2]!.toFixed(0)} ms, worst ${opens[4]!.toFixed(0)} ms of 5 opens.`,
    );
    const keystrokes = await page.evaluate(() => {
      const input = document.getElementById("search") as HTMLInputElement;
      const times: number[] = [];
      for (const word of ["customer 1", "9000000", "area", "zzz", "customer 29"]) {
        // Typed a letter at a time, then deleted a letter at a time.
        const lengths = [...word].map((_, i) => i + 1);
        for (const n of [...lengths, ...[...lengths].reverse().slice(1), 0]) {
          input.value = word.slice(0, n);
          const t = performance.now();
          input.dispatchEvent(new Event("input", { bubbles: true }));
          void document.body.offsetHeight; // the layout of the updated list
          times.push(performance.now() - t);
        }
      }
      return times.sort((a, b) => a - b);
    });
    const p95 = keystrokes[Math.ceil(keystrokes.length * 0.95) - 1]!;
    lines.push(
      `- A keystroke in the search box to the list updated (filter and layout), CPU slowed 4 times, ${CUSTOMERS + 20} customers: ` +
        `95th percentile ${p95.toFixed(1)} ms, worst ${keystrokes.at(-1)!.toFixed(1)} ms of ${keystrokes.length}.`,
    );
  } finally {
    await context.close();
  }
  return [
    `- The app's own files (page, script, styles, manifest, service worker): ${(gzip / 1024).toFixed(1)} KB gzip-compressed; icons apart (${icons} bytes).`,
    ...lines,
  ];
}
