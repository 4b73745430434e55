// Gathers POST /customers/create's parameters from the query and the body (docs/specification.md section 5).
// A non-empty body of a type not read is a 400: taken as "no body", it would get a misleading 422.
import { errors } from "../../platform/errors.ts";
import { Repeated } from "./create.kinds.ts";
import { PARAM_NAMES, type ParamName } from "./create.params.ts";

/** Values as sent: strings from a query or form, any JSON value from a JSON body, a File from multipart. */
export type RawParams = Partial<Record<ParamName, unknown>>;

const KNOWN = new Set<string>(PARAM_NAMES);
const SUPPORTED = "application/json, application/x-www-form-urlencoded or multipart/form-data";

export async function gatherParams(
  query: Record<string, string[]>,
  contentType: string | undefined,
  body: ArrayBuffer,
): Promise<RawParams> {
  const fromQuery = fromEntries(Object.entries(query));
  const fromBody = await readBody(contentType, new Uint8Array(body));
  return { ...fromQuery, ...fromBody };
}

/** {} for an empty body, whatever its type. */
export async function readBody(contentType: string | undefined, bytes: Uint8Array<ArrayBuffer>): Promise<RawParams> {
  if (bytes.byteLength === 0) return {};
  const type = mediaType(contentType);
  if (type === "application/json" || /^application\/[\w.-]+\+json$/.test(type)) return parseJson(utf8(bytes));
  if (type === "application/x-www-form-urlencoded") return fromEntries(groupPairs(parseUrlencoded(utf8(bytes))));
  if (type === "multipart/form-data") return parseMultipart(contentType!, bytes);
  throw errors.badRequest(
    type === ""
      ? `The request has a body but no Content-Type: send ${SUPPORTED}`
      : `Unsupported Content-Type ${type}: send ${SUPPORTED}`,
  );
}

function mediaType(contentType: string | undefined): string {
  return (contentType ?? "").split(";", 1)[0]!.trim().toLowerCase();
}

function utf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw errors.badRequest("The request body is not valid UTF-8");
  }
}

function parseJson(text: string): RawParams {
  // Whitespace alone is an empty body, as zero bytes are.
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw errors.badRequest("The request body is not valid JSON");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw errors.badRequest("The JSON body must be an object whose members are the parameters");
  }
  const out: RawParams = {};
  for (const [name, value] of Object.entries(parsed)) {
    // null is "not given": a query value of the same name, if any, stands.
    if (KNOWN.has(name) && value !== null) out[name as ParamName] = value;
  }
  return out;
}

/** application/x-www-form-urlencoded, strictly: bad percent-encoding is a 400, not a silent U+FFFD. */
function parseUrlencoded(text: string): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const part of text.split("&")) {
    if (part === "") continue;
    const eq = part.indexOf("=");
    pairs.push([formDecode(eq === -1 ? part : part.slice(0, eq)), formDecode(eq === -1 ? "" : part.slice(eq + 1))]);
  }
  return pairs;
}

function formDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    throw errors.badRequest("The form body is not valid application/x-www-form-urlencoded (bad percent-encoding)");
  }
}

async function parseMultipart(contentType: string, bytes: Uint8Array<ArrayBuffer>): Promise<RawParams> {
  let form: FormData;
  try {
    form = await new Request("http://body.invalid/", {
      method: "POST",
      headers: { "Content-Type": contentType },
      body: bytes,
    }).formData();
  } catch {
    throw errors.badRequest("The form body is not valid multipart/form-data");
  }
  return fromEntries(groupPairs(form.entries()));
}

function groupPairs<V>(pairs: Iterable<[string, V]>): Array<[string, V[]]> {
  const grouped = new Map<string, V[]>();
  for (const [name, value] of pairs) {
    const values = grouped.get(name);
    if (values) values.push(value);
    else grouped.set(name, [value]);
  }
  return [...grouped.entries()];
}

function fromEntries(entries: Array<[string, readonly unknown[]]>): RawParams {
  const out: RawParams = {};
  for (const [name, values] of entries) {
    if (!KNOWN.has(name) || values.length === 0) continue;
    out[name as ParamName] = values.length === 1 ? values[0] : new Repeated(values);
  }
  return out;
}
