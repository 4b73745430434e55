// The contract check: every answer that the test suite receives is held to the OpenAPI document
// that the worker serves at /openapi.json, for its path, method and status: the status must be
// documented, the documented required headers present and well-formed, and the body must match
// the documented schema exactly. The document leaves objects open (clients should tolerate new
// fields); the check closes them, so that a field added, dropped or retyped fails a test.
import { Validator, type Schema } from "@cfworker/json-schema";

type Json = Record<string, unknown>;

interface HeaderDoc {
  required?: boolean;
  schema?: Schema;
}

interface ResponseDoc {
  description?: string;
  headers?: Record<string, HeaderDoc | { $ref: string }>;
  content?: Record<string, { schema?: Schema }>;
}

interface OpenApiDoc {
  paths: Record<string, Record<string, { responses?: Record<string, ResponseDoc | { $ref: string }> }>>;
  components: { schemas?: Record<string, Schema>; headers?: Record<string, HeaderDoc> };
  /** The answers of any path (404) or of a path's other methods (405), by status. */
  "x-any-path-responses"?: Record<string, ResponseDoc>;
}

/** One request and the answer it got, as call() saw them. */
export interface Exchange {
  method: string;
  url: string;
  status: number;
  headers: Headers;
  text: string;
}

/** The API lives under this prefix in the document; the same endpoints also answer at the root. */
const API_PREFIX = "/api";

/** Served outside the published document: the docs themselves, the administrator's side, the field app. */
const OUTSIDE_API = [/^\/openapi\.json$/, /^\/docs(\/|$)/, /^\/dashboard(\/|$)/, /^\/admin(\/|$)/, /^\/app(\/|$)/];

/**
 * Left out of the document, which names them in its description (docs/decisions.md): the monitor's
 * check at any method, and the camera's hop GET /enroll (POST /enroll is documented). Their own tests
 * assert their whole answers.
 */
function outsideDocument(method: string, pathname: string): boolean {
  const path = pathname.startsWith(`${API_PREFIX}/`) ? pathname.slice(API_PREFIX.length) : pathname;
  return path === "/healthz" || (path === "/enroll" && (method === "GET" || method === "HEAD"));
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

export class ContractError extends Error {
  override readonly name = "ContractError";
}

export class Contract {
  private readonly doc: OpenApiDoc;
  private readonly paths: { template: string; pattern: RegExp }[];
  private readonly validators = new Map<string, Validator>();

  constructor(document: unknown) {
    this.doc = structuredClone(document) as OpenApiDoc;
    closeObjects(this.doc);
    this.paths = Object.keys(this.doc.paths).map((template) => ({ template, pattern: templatePattern(template) }));
  }

  /** Throws a ContractError naming every way the answer departs from the document. */
  check(ex: Exchange): void {
    const problems = this.problems(ex);
    if (problems.length === 0) return;
    const body = ex.text.length > 1500 ? `${ex.text.slice(0, 1500)}…` : ex.text;
    throw new ContractError(
      `${ex.method} ${ex.url} answered ${ex.status}, which the OpenAPI document does not allow:\n` +
        problems.map((p) => `  - ${p}`).join("\n") +
        `\nbody: ${body}`,
    );
  }

  private problems(ex: Exchange): string[] {
    const url = new URL(ex.url);
    const method = ex.method.toUpperCase();
    // A CORS preflight is answered by the CORS middleware on any path, always 204 without a body.
    if (method === "OPTIONS" && ex.status === 204) return ex.text === "" ? [] : ["a preflight answer has a body"];

    if (outsideDocument(method, url.pathname)) return [];
    const template = this.findPath(url.pathname);
    if (!template) {
      if (OUTSIDE_API.some((p) => p.test(url.pathname))) return [];
      if (ex.status === 404) return this.responseProblems(ex, this.anyPath("404"), "x-any-path-responses.404");
      return [`the path ${url.pathname} is not in the document (only 404 may answer there)`];
    }

    const item = this.doc.paths[template]!;
    const operation = item[method === "HEAD" ? "get" : method.toLowerCase()];
    if (!operation) {
      if (ex.status === 405) {
        const allowed = METHODS.filter((m) => item[m]).map((m) => m.toUpperCase());
        const problems = this.responseProblems(ex, this.anyPath("405"), "x-any-path-responses.405");
        const allow = ex.headers.get("Allow") ?? "";
        for (const m of allowed)
          if (!allow.split(/,\s*/).includes(m)) problems.push(`Allow "${allow}" does not list ${m}`);
        return problems;
      }
      return [`${method} is not documented for ${template} (only 405 may answer)`];
    }
    const responses = operation.responses ?? {};
    const key = [String(ex.status), `${String(ex.status)[0]}XX`, "default"].find((k) => k in responses);
    if (!key)
      return [
        `status ${ex.status} is not documented for ${method} ${template}; documented: ${Object.keys(responses).join(", ")}`,
      ];
    return this.responseProblems(
      ex,
      this.resolve(responses[key]!),
      `paths.${template}.${method.toLowerCase()}.responses.${key}`,
    );
  }

  private responseProblems(ex: Exchange, response: ResponseDoc, where: string): string[] {
    const problems: string[] = [];
    for (const [name, ref] of Object.entries(response.headers ?? {})) {
      const header = this.resolve<HeaderDoc>(ref);
      const value = ex.headers.get(name);
      if (value === null) {
        if (header.required) problems.push(`required header ${name} is missing`);
        continue;
      }
      if (header.schema) {
        for (const error of this.validator(`${where}.headers.${name}`, header.schema).validate(value).errors) {
          problems.push(`header ${name} "${value}": ${error.error}`);
        }
      }
    }

    if (ex.method.toUpperCase() === "HEAD") return problems;
    if (!response.content) {
      if (ex.text !== "") problems.push("the document gives this answer no body, but it has one");
      return problems;
    }
    const type = (ex.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
    const media = response.content[type];
    if (!media)
      return [...problems, `Content-Type "${type}" is not documented (${Object.keys(response.content).join(", ")})`];
    // A page (HTML) is a string: its type is all that the document can say of it.
    if (!media.schema || !type.includes("json")) return problems;
    let body: unknown;
    try {
      body = JSON.parse(ex.text);
    } catch {
      return [...problems, "the body is not JSON"];
    }
    const result = this.validator(`${where}.${type}`, media.schema).validate(body);
    for (const error of result.errors.filter((e) => e.keyword !== "properties" && e.keyword !== "$ref")) {
      problems.push(`body${error.instanceLocation.slice(1)}: ${error.error} (${error.keywordLocation})`);
    }
    if (!result.valid && problems.length === 0) problems.push(`body: ${result.errors.map((e) => e.error).join("; ")}`);
    return problems;
  }

  /** A response's template in the document: as called, or the same endpoint served at the root. */
  private findPath(pathname: string): string | undefined {
    for (const candidate of [pathname, `${API_PREFIX}${pathname}`]) {
      const hit = this.paths.find((p) => p.pattern.test(candidate));
      if (hit) return hit.template;
    }
    return undefined;
  }

  private anyPath(status: "404" | "405"): ResponseDoc {
    const response = this.doc["x-any-path-responses"]?.[status];
    if (!response) throw new ContractError(`the document has no x-any-path-responses.${status}`);
    return response;
  }

  private resolve<T = ResponseDoc>(value: T | { $ref: string }): T {
    const ref = (value as { $ref?: string }).$ref;
    if (!ref) return value as T;
    let target: unknown = this.doc;
    for (const part of ref.replace(/^#\//, "").split("/")) {
      target = (target as Json | undefined)?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
    }
    if (target === undefined) throw new ContractError(`the document's ${ref} does not exist`);
    return this.resolve(target as T | { $ref: string });
  }

  private validator(key: string, schema: Schema): Validator {
    let validator = this.validators.get(key);
    if (!validator) {
      // The components ride along so that the schema's "#/components/..." references resolve.
      validator = new Validator({ ...schema, components: this.doc.components } as Schema, "2020-12", false);
      this.validators.set(key, validator);
    }
    return validator;
  }
}

function templatePattern(template: string): RegExp {
  const literal = template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${literal.join("[^/]+")}$`);
}

/**
 * Sets additionalProperties: false on every object schema of the document that leaves it open, and
 * drops the examples.
 */
function closeObjects(doc: OpenApiDoc): void {
  for (const schema of Object.values(doc.components.schemas ?? {})) close(schema);
  for (const item of Object.values(doc.paths)) {
    for (const operation of Object.values(item)) {
      for (const response of Object.values(operation.responses ?? {})) {
        for (const media of Object.values((response as ResponseDoc).content ?? {}))
          if (media.schema) close(media.schema);
      }
    }
  }
}

function close(schema: unknown): void {
  if (!schema || typeof schema !== "object") return;
  const s = schema as Schema;
  // Examples are annotations; the validator would read an example's "id" member as a schema id.
  delete s.example;
  delete s.examples;
  // allOf would need unevaluatedProperties to stay correct; no schema of ours uses it yet.
  if (s.allOf)
    throw new ContractError("the contract check does not handle allOf: close such schemas with unevaluatedProperties");
  if (s.properties) {
    s.additionalProperties ??= false;
    for (const sub of Object.values(s.properties)) close(sub);
  }
  for (const key of ["items", "additionalProperties", "not"] as const) close(s[key]);
  for (const key of ["anyOf", "oneOf", "prefixItems"] as const) for (const sub of s[key] ?? []) close(sub);
}
