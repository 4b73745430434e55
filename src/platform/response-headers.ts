// Response headers that the document describes once (components.headers) and routes refer to.

/** A header as the document describes it: one entry of components.headers. */
function header(description: string, required: boolean, schema: { type: "string" } & Record<string, unknown>) {
  return { description, required, schema };
}

export const RESPONSE_HEADERS = {
  "X-Request-Id": header(
    "This request's id: the caller's X-Request-Id when it sent one of sane length, else a new one. Quote it when reporting a problem.",
    true,
    { type: "string", minLength: 1 },
  ),
  "Server-Timing": header(
    'The D1 and KV work this request did, e.g. `d1;dur=1.2;desc="1 round trips",d1rows;desc="61 rows read",kv;dur=0.4;desc="1 reads",total;dur=3.1;desc="total"` (d1rows: the sum of D1\'s own rows_read over the request\'s statements). Absent where the deployment turns it off.',
    false,
    { type: "string" },
  ),
  ETag: header(
    "The answer's entity tag; send it back in If-None-Match to get 304 while the answer is unchanged.",
    true,
    { type: "string", pattern: '^(W/)?"[^"]*"$' },
  ),
  "Retry-After": header("Seconds to wait before trying again.", true, { type: "string", pattern: "^[0-9]+$" }),
  "Key-Rotation": header(
    "`due` when the key of the request should be rotated (its rotation is due, or it is an old key already rotated that still works): call POST /keys/rotate with it, store the successor and use that (docs/specification.md section 9). Absent otherwise.",
    false,
    { type: "string", const: "due" },
  ),
  "WWW-Authenticate": header("The authentication scheme to use: Bearer.", true, { type: "string", const: "Bearer" }),
};

// Not a component: only the any-path answers, in an extension, carry it (a reference there is unused to Redocly).
export const ALLOW_HEADER = header("The methods that this path answers, e.g. `GET, HEAD`.", true, {
  type: "string",
  minLength: 1,
});

export type ResponseHeaderName = keyof typeof RESPONSE_HEADERS;

export const headerRef = (name: ResponseHeaderName) => ({ $ref: `#/components/headers/${name}` });
