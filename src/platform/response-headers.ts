// Response headers that the document describes once (components.headers) and routes refer to.

export const RESPONSE_HEADERS = {
  "X-Request-Id": {
    description:
      "This request's id: the caller's X-Request-Id when it sent one of sane length, else a new one. Quote it when reporting a problem.",
    required: true,
    schema: { type: "string", minLength: 1 },
  },
  "Server-Timing": {
    description:
      'The D1 and KV work this request did, e.g. `d1;dur=1.2;desc="1 round trips",d1rows;desc="61 rows read",kv;dur=0.4;desc="1 reads",total;dur=3.1;desc="total"` (d1rows: the sum of D1\'s own rows_read over the request\'s statements). Absent where the deployment turns it off.',
    required: false,
    schema: { type: "string" },
  },
  ETag: {
    description: "The answer's entity tag; send it back in If-None-Match to get 304 while the answer is unchanged.",
    required: true,
    schema: { type: "string", pattern: '^(W/)?"[^"]*"$' },
  },
  "Retry-After": {
    description: "Seconds to wait before trying again.",
    required: true,
    schema: { type: "string", pattern: "^[0-9]+$" },
  },
  "Key-Rotation": {
    description:
      "`due` when the key of the request should be rotated (its rotation is due, or it is an old key already rotated that still works): call POST /keys/rotate with it, store the successor and use that (docs/specification.md section 9). Absent otherwise.",
    required: false,
    schema: { type: "string", const: "due" },
  },
  "WWW-Authenticate": {
    description: "The authentication scheme to use: Bearer.",
    required: true,
    schema: { type: "string", const: "Bearer" },
  },
} as const;

// Not a component: only the any-path answers carry it, and they sit in an extension, where a reference would leave the
// component unused in Redocly's eyes.
export const ALLOW_HEADER = {
  description: "The methods that this path answers, e.g. `GET, HEAD`.",
  required: true,
  schema: { type: "string", minLength: 1 },
} as const;

export type ResponseHeaderName = keyof typeof RESPONSE_HEADERS;

export const headerRef = (name: ResponseHeaderName) => ({ $ref: `#/components/headers/${name}` });
