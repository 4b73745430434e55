// npm run client:types: writes the typed client's declarations (packages/client/src/api.gen.ts) from the
// worker's own route types, as the TypeScript compiler infers them from the zod schemas; `--check` (a step of
// npm run check) fails when the committed file differs. Why generated: docs/decisions.md, "The client package".
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { format, resolveConfig } from "prettier";
import ts from "typescript";
import { type CommandLine, parseCommandLine } from "./lib/cli.ts";

const ROOT = resolve(import.meta.dirname, "..");
const GENERATED = resolve(ROOT, "packages/client/src/api.gen.ts");

const COMMAND: CommandLine = {
  invocation: "npm run client:types --",
  usage: `Usage: npm run client:types [-- --check]
  Writes packages/client/src/api.gen.ts, the typed client's record and route types, from the worker's routes.
  --check  write nothing; exit 1 when the committed file differs from what the routes give now`,
};

/**
 * The types to print, in this order: each later one names the earlier ones where it holds them. The
 * route table is flattened (mapped) so that the compiler prints its members instead of hono's alias.
 */
const SOURCE = `
import type { Hono } from "hono";
import type { AppType } from "./api.ts";
type SchemaOf<A> = A extends Hono<any, infer S, any> ? S : never;
type S = SchemaOf<AppType>;
/** A route's body for one status, as hc reads it (JSON-parsed). */
type Body<P extends keyof S, M extends keyof S[P], Status> = Extract<S[P][M], { status: Status }> extends { output: infer O } ? O : never;
type CustomerOf = Body<"/customers", "$get", 200>["data"]["customers"][number];
export type ErrorCode = ErrorEnvelope["error"]["code"];
export type ErrorEnvelope = Body<"/customers", "$get", 401>;
export type Address = Extract<CustomerOf["address"], { addressline1: string }>;
export type Customer = CustomerOf;
export type Order = Body<"/orders", "$get", 200>["data"]["orders"][number];
export type CustomerChange = Extract<Body<"/sync", "$get", 200>["data"]["changes"][number], { type: "customer" }>;
export type OrderChange = Extract<Body<"/sync", "$get", 200>["data"]["changes"][number], { type: "order" }>;
export type EnrolledKey = Body<"/enroll", "$post", 201>["data"];
export type RotatedKey = Body<"/keys/rotate", "$post", 201>["data"];
export type ApiSchema = { [P in keyof S]: { [M in keyof S[P]]: S[P][M] } };
`;

const HONO_TYPES: Record<string, string> = { JSONValue: "hono/utils/types", StatusCode: "hono/utils/http-status" };

const DOCS: Record<string, string> = {
  ErrorCode: "The error envelope's `code`.",
  ErrorEnvelope: "Every refusal's body: the service's error envelope.",
  Address: "A customer's address; `address` is `[]` for a customer who has none.",
  Customer: "A customer as GET /customers lists it, and as sync delivers it.",
  Order: "An order as GET /orders lists it, and as sync delivers it.",
  CustomerChange: "A change to a customer of the book: `data` null for a delete.",
  OrderChange: "A change to an order of the book: `data` null for a delete.",
  EnrolledKey: "A key as POST /enroll answers it, with its secret.",
  RotatedKey: "A key's successor as POST /keys/rotate answers it, with its secret.",
  ApiSchema: "Every route under /api (paths without the prefix): its inputs, and its body by status.",
};

/** The declarations as the worker's routes give them now, formatted as the repository formats code. */
async function generateClientTypes(): Promise<string> {
  const configFile = ts.getParsedCommandLineOfConfigFile(
    resolve(ROOT, "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  )!;
  // A module of its own beside the worker's (never written to disk), so that its imports resolve as theirs do.
  const entry = resolve(ROOT, "src/client-types.virtual.ts");
  const host = ts.createCompilerHost(configFile.options);
  const getSourceFile = host.getSourceFile;
  host.getSourceFile = (file, language, ...rest) =>
    resolve(file) === entry
      ? ts.createSourceFile(file, SOURCE, language)
      : getSourceFile.call(host, file, language, ...rest);
  const fileExists = host.fileExists;
  host.fileExists = (file) => resolve(file) === entry || fileExists.call(host, file);
  const program = ts.createProgram([entry, resolve(ROOT, "worker-configuration.d.ts")], configFile.options, host);
  const source = program.getSourceFile(entry)!;
  const problems = ts.getPreEmitDiagnostics(program, source);
  if (problems.length > 0) throw new Error(ts.formatDiagnostics(problems, host));

  const checker = program.getTypeChecker();
  const flags = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.InTypeAlias;
  const printed: { name: string; text: string }[] = [];
  for (const statement of source.statements) {
    if (!ts.isTypeAliasDeclaration(statement) || !statement.modifiers) continue;
    const text = checker.typeToString(checker.getTypeAtLocation(statement.name), undefined, flags);
    // An `any` (a type the compiler could not work out) would let an app's code through unchecked: refused.
    const loose = /\bany\b/.exec(text.replace(/"[^"]*"/g, '""'));
    if (loose) {
      const around = text.replace(/"[^"]*"/g, '""').slice(Math.max(0, loose.index - 300), loose.index + 50);
      throw new Error(`${statement.name.text} prints as a type the client cannot check, at: ${around}`);
    }
    printed.push({ name: statement.name.text, text });
  }
  // Name each earlier type wherever a later one holds it, longest first (a Customer holds an Address).
  const named = printed.map(({ name, text }, i) => {
    let out = text;
    for (const earlier of printed.slice(0, i).sort((a, b) => b.text.length - a.text.length)) {
      out = out.split(earlier.text).join(earlier.name);
    }
    return `/** ${DOCS[name]} */\nexport type ${name} = ${out};`;
  });
  const all = named.join("\n\n");
  // The types of hono's own that the routes name (an empty array's items, GET /enroll's redirect status); the
  // package's build fails on any other name that the compiler printed.
  const imports = Object.entries(HONO_TYPES)
    .filter(([name]) => new RegExp(`\\b${name}\\b`).test(all))
    .map(([name, from]) => `import type { ${name} } from "${from}";\n`)
    .join("");
  const body = `// Generated by \`npm run client:types\` from the worker's routes: do not edit. \`npm run check\` fails when
// it differs from what the routes serve (docs/decisions.md, "The client package").
/* eslint-disable @typescript-eslint/no-empty-object-type -- hono's own shape of a route part with nothing in it */

${imports}${imports ? "\n" : ""}${all}

/** A change to a record of the book, in the order the service sends them. */
export type Change = CustomerChange | OrderChange;
`;
  return format(body, { ...(await resolveConfig(GENERATED)), filepath: GENERATED });
}

async function main(): Promise<void> {
  const { values } = parseCommandLine(process.argv.slice(2), COMMAND, { check: { type: "boolean" } });
  const generated = await generateClientTypes();
  if (!values.check) {
    writeFileSync(GENERATED, generated);
    console.log(`wrote ${GENERATED.slice(ROOT.length + 1)}`);
    return;
  }
  const committed = existsSync(GENERATED) ? readFileSync(GENERATED, "utf8") : "";
  if (committed === generated) {
    console.log("The typed client's declarations match the routes.");
    return;
  }
  const was = committed.split("\n");
  const now = generated.split("\n");
  const line = now.findIndex((text, i) => was[i] !== text);
  console.error(
    `packages/client/src/api.gen.ts differs from the worker's routes (first at line ${line + 1}:\n` +
      `  committed: ${was[line] ?? "(end of file)"}\n  routes:    ${now[line] ?? "(end of file)"})\n` +
      "Run npm run client:types, and check what changed for apps built on the client.",
  );
  process.exitCode = 1;
}

await main();
