// `npm run bench -- scale` (docs/scaling.md): the service on a large dataset beside one a tenth its size: the
// import's time and memory, bytes per order, each page's latency and rows read at both sizes, GET /sync, and a
// second import changing 1% of the records. Throughput against the floors is the api suite's, at any size.
import { createReadStream, createWriteStream, existsSync, readFileSync, renameSync, statSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { DatabaseSync } from "node:sqlite";
import { pipeline } from "node:stream/promises";
import { execa } from "execa";
import { descendants } from "../lib/processes.ts";
import type { ApiOptions } from "./api.ts";
import {
  auth,
  d1FileOf,
  type Figures,
  findTargets,
  getJson,
  largeDataset,
  makeKey,
  median,
  num,
  type PerfRun,
  query,
  tableHead,
} from "./harness.ts";
import { syncPath, wholeSync } from "./sync.ts";

const GOALS = { importSeconds: 600, importMib: 300, p50Ratio: 1.1 };

const mib = (bytes: number) => `${num(bytes / 1048576)} MiB`;
const verdict = (met: boolean) => (met ? "met" : "**short**");

/** `npm run db:import -- FILE` into `persistDir`, its whole process tree's resident memory summed every 200 ms. */
async function measureImport(file: string, persistDir: string) {
  const started = performance.now();
  // Standard error passes through: the importer's progress lines show while it works.
  const child = execa("npm", ["run", "db:import", "--", file], {
    env: { PERSIST_DIR: persistDir },
    ...{ stdin: "ignore", stderr: "inherit", reject: false },
  });
  let peakKib = 0;
  let atPeak = "";
  const timer = setInterval(() => {
    const each = [child.pid!, ...descendants(child.pid!)].map(resident).filter((p) => p.kib > 0);
    const tree = each.reduce((sum, p) => sum + p.kib, 0);
    if (tree <= peakKib) return;
    peakKib = tree;
    atPeak = each
      .sort((a, b) => b.kib - a.kib)
      .map((p) => `${p.name} ${Math.round(p.kib / 1024)} (anonymous ${Math.round(p.anonKib / 1024)})`)
      .join(", ");
  }, 200);
  const { exitCode, stdout } = await child;
  clearInterval(timer);
  const summary = stdout.trim().split("\n").at(-1) ?? "";
  if (exitCode !== 0) throw new Error(`npm run db:import -- ${file} exited ${exitCode}: ${summary}`);
  return { seconds: (performance.now() - started) / 1000, peakMib: peakKib / 1024, atPeak, summary };
}

/** A process's resident memory in KiB (all, and its anonymous part: not pages of mapped files) and its name. */
function resident(pid: number): { name: string; kib: number; anonKib: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
    return { name: /^Name:\s+(.*)$/m.exec(status)?.[1] ?? String(pid), kib: field("VmRSS"), anonKib: field("RssAnon") };
  } catch {
    return { name: String(pid), kib: 0, anonKib: 0 }; // ended between the listing and the read
  }
}

/**
 * The API's D1 file in a PERSIST_DIR, checkpointed first (a WAL left by the importer would be counted apart): its
 * size, its pages in use, its largest tables and indexes (SQLite's dbstat). Only while no server has it open.
 */
function databaseSize(persistDir: string) {
  const file = d1FileOf(persistDir);
  const db = new DatabaseSync(file);
  try {
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const one = (sql: string) => Object.values(db.prepare(sql).get() ?? {})[0] as number;
    const usedBytes = (one("PRAGMA page_count") - one("PRAGMA freelist_count")) * one("PRAGMA page_size");
    const largest = db
      .prepare("SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC LIMIT 8")
      .all() as { name: string; bytes: number }[];
    return { fileBytes: statSync(file).size, usedBytes, largest };
  } finally {
    db.close();
  }
}

/**
 * A page's rows read and what it answered: customers, or orders with their lines and invoices (what the page bound
 * counts, statuses left out). Pages of two datasets answer different lines, so rows per item is what compares them.
 */
async function pageCost(size: { server: { url: string }; key: string }, path: string) {
  const { rows, body } = await getJson(`${size.server.url}${path}`, size.key);
  const orders: { products: unknown[]; invoices: unknown[] }[] = body.data.orders ?? [];
  const items =
    (body.data.customers ?? []).length + orders.reduce((n, o) => n + 1 + o.products.length + o.invoices.length, 0);
  return { rows, items };
}

/**
 * The second import's file, `<file>.changed.jsonl` (kept beside the dataset, like it, and reused): a copy in which a
 * customer whose id is a multiple of 100 gets a new display name and such an order another delivery agent, streamed
 * line by line (constant memory); with the changed records in each sales agent's book (its next sync's answer) and
 * in any book (a customer without an agent is in none; an order shows its customer, so a renamed customer's orders
 * count too).
 */
async function changedCopy(file: string) {
  const out = file.replace(/\.jsonl$/, ".changed.jsonl");
  const agentOfCustomer: number[] = [];
  const perAgent = new Map<number, number>();
  const inBooks = { customers: 0, orders: 0 };
  const count = (agent: number | null | undefined, kind: keyof typeof inBooks) => {
    if (!agent) return;
    perAgent.set(agent, (perAgent.get(agent) ?? 0) + 1);
    inBooks[kind]++;
  };
  let [deliveryAgents, customers, orders] = [0, 0, 0];
  async function* changedLines() {
    for await (const text of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
      let line = text;
      const record = JSON.parse(text);
      if (record.type === "delivery_agent") deliveryAgents++;
      else if (record.type === "customer") {
        agentOfCustomer[record.id] = record.salesagent_id ?? 0;
        if (record.id % 100 === 0) {
          line = JSON.stringify({ ...record, display_name: `${record.display_name} (renamed)` });
          customers++;
          count(record.salesagent_id, "customers");
        }
      } else if (record.type === "order") {
        if (record.id % 100 === 0) {
          line = JSON.stringify({ ...record, deliveryagent_id: ((record.deliveryagent_id ?? 0) % deliveryAgents) + 1 });
          orders++;
        }
        if (record.id % 100 === 0 || record.customer_id % 100 === 0)
          count(agentOfCustomer[record.customer_id], "orders");
      }
      yield `${line}\n`;
    }
  }
  if (existsSync(out)) for await (const _ of changedLines());
  else {
    await pipeline(changedLines, createWriteStream(`${out}.partial`));
    // Renamed only when complete, so that an interrupted run never leaves a truncated file to reuse.
    renameSync(`${out}.partial`, out);
  }
  return { file: out, customers, orders, perAgent, inBooks };
}

export async function runScale(perf: PerfRun, opts: ApiOptions): Promise<string[]> {
  const run = perf.runner(opts.load);
  const plan = [
    { name: "large", customers: opts.customers, orders: opts.orders },
    { name: "small", customers: Math.max(1, Math.floor(opts.customers / 10)), orders: Math.floor(opts.orders / 10) },
  ];
  const sizes = [];
  for (const p of plan) {
    const dataset = await largeDataset(opts.cacheDir, p.customers, p.orders);
    const state = join(perf.dir, `${p.name}-state`);
    perf.step(`npm run db:import (${p.name}: ${dataset.file}) into ${state} ...`);
    const imported = await measureImport(dataset.file, state);
    perf.step(`import (${p.name}): ${imported.seconds.toFixed(1)} s, peak ${imported.peakMib.toFixed(0)} MiB`);
    const database = databaseSize(state);
    const [agent] = await query<{ id: number; customers: number }>(
      state,
      "SELECT agent_id AS id, n AS customers FROM agent_customer_counts ORDER BY n DESC, agent_id LIMIT 1",
    );
    if (!agent) throw new Error("the imported dataset has no sales agent with customers");
    const [key, targets] = [await makeKey(state, "bench-scale"), await findTargets(state)];
    const server = await perf.serveApi(`api-${p.name}`, "dev", state);
    sizes.push({ ...p, file: dataset.file, state, imported, database, key, targets, agent, server });
  }
  const [large, small] = sizes as [(typeof sizes)[0], (typeof sizes)[0]];

  // Rows read and latency of the same requests at both sizes, the two sizes alternating in each round.
  const pages = [];
  for (const [label, path] of [
    ["GET /customers (10)", () => "/api/customers?count=10"],
    ["GET /orders (10, busiest customer)", (s: typeof large) => `/api/orders?phone_number=${s.targets.phone}&count=10`],
  ] as const) {
    const rows = [await pageCost(small, path(small)), await pageCost(large, path(large))];
    const rounds: Figures[][] = [];
    for (let i = 0; i < opts.rounds; i++) {
      const round = [];
      for (const s of [small, large]) round.push(await run(`${label} (${s.name})`, s.server, path(s), auth(s.key)));
      rounds.push(round);
    }
    pages.push({ label, rows, rounds });
  }

  const syncOf = async (s: typeof large) => {
    const whole = await wholeSync(s.server.url, s.key, s.agent.id);
    const caughtUp = await wholeSync(s.server.url, s.key, s.agent.id, whole.cursor);
    const page = await run(`GET /sync (first page of 200, ${s.name})`, s.server, syncPath(s.agent.id), auth(s.key));
    const atEnd = syncPath(s.agent.id, whole.cursor);
    return { whole, caughtUp, page, load: await run(`GET /sync (caught up, ${s.name})`, s.server, atEnd, auth(s.key)) };
  };
  const sync = [await syncOf(small), await syncOf(large)];
  await Promise.all(sizes.map((s) => s.server.stop()));

  perf.step("second import: 1% of the customers and orders changed ...");
  const changed = await changedCopy(large.file);
  const seq = (await query<{ seq: number }>(large.state, "SELECT coalesce(max(seq), 0) AS seq FROM sync_changes"))[0]!
    .seq;
  const second = await measureImport(changed.file, large.state);
  // The change log's entries that the second import wrote, by kind, and those in the agent's book.
  const log = await query<{ kind: string; n: number; mine: number }>(
    large.state,
    `SELECT kind, count(*) AS n, sum(book = ${large.agent.id}) AS mine FROM sync_changes WHERE seq > ${seq} GROUP BY kind`,
  );
  const [customerLog, orderLog] = ["customer", "order"].map((kind) => log.find((r) => r.kind === kind));
  const logged = {
    customers: customerLog?.n ?? 0,
    orders: orderLog?.n ?? 0,
    agent: (customerLog?.mine ?? 0) + (orderLog?.mine ?? 0),
  };
  const server = await perf.serveApi("api-large-after", "dev", large.state);
  const after = await wholeSync(server.url, large.key, large.agent.id, sync[1]!.whole.cursor);
  await server.stop();
  const expected = changed.perAgent.get(large.agent.id) ?? 0;

  const { imported: i, database: d, orders } = large;
  return [
    `- Data: ${sizes.map((s) => `${s.name} ${num(s.customers)} customers, ${num(s.orders)} orders (${s.file})`).join("; ")}`,
    "",
    "## Import",
    "",
    ...tableHead(
      "| size | wall time (command) | peak RSS of the tree | at the peak (MiB) | database file | in use | bytes per order |",
    ),
    ...sizes.map(
      ({ imported: m, database: db, orders: n }) =>
        `| ${num(n)} orders | ${m.seconds.toFixed(1)} s | ${m.peakMib.toFixed(0)} MiB | ${m.atPeak} | ` +
        `${mib(db.fileBytes)} | ${mib(db.usedBytes)} | ${num(db.fileBytes / n)} |`,
    ),
    "",
    `Goals at ${num(orders)} orders: under ${GOALS.importSeconds / 60} minutes (${verdict(i.seconds < GOALS.importSeconds)}, ` +
      `${i.seconds.toFixed(0)} s), under ${GOALS.importMib} MB (${verdict(i.peakMib * 1.048576 < GOALS.importMib)}, ` +
      `${num(i.peakMib * 1.048576)} MB).`,
    "",
    `Largest tables and indexes at ${num(orders)} orders: ${d.largest.map((t) => `${t.name} ${mib(t.bytes)}`).join(", ")}.`,
    "",
    `Importer summaries: ${sizes.map((s) => `${s.name}: ${s.imported.summary}`).join(" ")}`,
    "",
    "## Pages at both sizes",
    "",
    ...tableHead(
      `| request | rows read (${num(small.orders)} / ${num(orders)} orders) | per item answered | p50 ms (small / large, median round) | p99 ms | p50 ratio | goal |`,
    ),
    ...pages.map(({ label, rows, rounds }) => {
      const ratios = rounds.map(([s, l]) => l!.p50 / s!.p50);
      const mid = median(ratios);
      const [s, l] = rounds[ratios.indexOf(mid)]!;
      // Equal rows at both sizes; or, where the pages answer different lines (two datasets' busiest customers'
      // orders), each within the page bound of docs/specification.md section 4.
      const rowsMet =
        rows[0]!.rows === rows[1]!.rows
          ? "equal: met"
          : rows.every((r) => r.rows <= 4 * r.items + 10)
            ? "within the bound (4 per order, line and invoice + 10) at both sizes: met"
            : "**short**";
      return (
        `| ${label} | ${rows.map((r) => r.rows).join(" / ")} | ${rows.map((r) => (r.rows / Math.max(1, r.items)).toFixed(2)).join(" / ")} | ` +
        `${s!.p50} / ${l!.p50} | ${s!.p99} / ${l!.p99} | ${mid.toFixed(2)} (rounds ${ratios.map((r) => r.toFixed(2)).join(", ")}) | ` +
        `rows ${rowsMet}, p50 ${verdict(mid <= GOALS.p50Ratio)} |`
      );
    }),
    "",
    "## GET /sync",
    "",
    ...tableHead(
      "| size | agent's book | whole first sync | rows per record | first page of 200: rows, bytes | caught up: rows | page of 200 under load: req/s, p50, CPU ms per record | caught up under load: req/s, p50 |",
    ),
    ...[small, large].map((s, k) => {
      const { whole, caughtUp, page, load } = sync[k]!;
      const perRecord = page.cpuMs === null ? "?" : (page.cpuMs / Math.max(1, whole.firstPage.records)).toFixed(3);
      return (
        `| ${num(s.orders)} orders | agent ${s.agent.id}, ${whole.records} records | ${whole.seconds.toFixed(1)} s, ${whole.pages} pages | ` +
        `${(whole.rows / Math.max(1, whole.records)).toFixed(2)} | ${whole.firstPage.rows}, ${num(whole.firstPage.bytes)} | ${caughtUp.rows} | ` +
        `${num(page.rps)}, ${page.p50} ms, ${perRecord} | ${num(load.rps)}, ${load.p50} ms |`
      );
    }),
    "",
    "## Second import (1% of the records changed)",
    "",
    `${num(changed.customers)} customers renamed and ${num(changed.orders)} orders given another delivery agent ` +
      `(${changed.file}): ${second.seconds.toFixed(1)} s for the command, peak ${second.peakMib.toFixed(0)} MiB; ${second.summary}`,
    `Sync change log (sync_changes entries written by the second import): ${num(logged.customers)} customers and ` +
      `${num(logged.orders)} orders, against ${num(changed.inBooks.customers)} customers and ${num(changed.inBooks.orders)} orders ` +
      "in some agent's book whose records changed (an order shows its customer, so a renamed customer's orders change too): " +
      `${verdict(logged.customers === changed.inBooks.customers && logged.orders === changed.inBooks.orders)}; ` +
      `in agent ${large.agent.id}'s book ${logged.agent} against ${expected}.`,
    `Sync deltas for agent ${large.agent.id}: ${after.records} changes after the second import, ${expected} records of its book ` +
      `changed (${verdict(after.records === expected)}), ${after.seconds.toFixed(1)} s.`,
  ];
}
