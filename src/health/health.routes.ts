// GET /healthz: up, version, mode; public, touching neither D1 nor KV (a deploy calls it: docs/operations.md).
import { createRoute, z } from "@hono/zod-openapi";
import { ErrorSchema } from "../platform/errors.ts";

const HealthSchema = z
  .object({
    status: z.literal("ok"),
    version: z.string().min(1).openapi({
      description:
        "The Workers version id of the code that answered (as `wrangler deployments list` and `wrangler tail --version-id` name it); the package version where the runtime gives none.",
    }),
    mode: z.enum(["test", "live"]).openapi({ description: "The mode of API key that this deployment accepts" }),
  })
  .openapi("Health", { example: { status: "ok", version: "5f0f6fb1-5b6a-4f0c-9a38-2d0e7e7b1c4e", mode: "live" } });

export const health = createRoute({
  method: "get",
  path: "/healthz",
  operationId: "getHealth",

  summary: "Health check",
  description:
    "Answers 200 while the deployment runs, with its version and mode. Needs no API key and reads no data (neither D1 nor KV), so a monitor may call it as often as it likes. Also served at /healthz.",
  // Out of the document: it has no 4XX answer, which Redocly's rules ask of every operation.
  hide: true,
  security: [],
  responses: {
    200: {
      description: "The deployment is up",
      headers: {
        "Cache-Control": {
          description: "Never kept by any cache: each call reaches the deployment.",
          required: true,
          schema: { type: "string", const: "no-store" },
        },
      },
      content: { "application/json": { schema: HealthSchema } },
    },
    500: {
      description: "The deployment is misconfigured (its MODE is neither test nor live)",
      content: { "application/json": { schema: ErrorSchema } },
    },
  },
});
