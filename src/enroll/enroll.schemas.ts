// POST /enroll's body and answer as the published document describes them (docs/specification.md section 9).
import { z } from "@hono/zod-openapi";

const CODE_RULE = "is required: the code";
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Served by the route (jsonBody) as well as documented: its rules are the exchange's only checks of the body. */
export const EnrollBodySchema = z
  .object(
    {
      code: z
        .string({ error: CODE_RULE })
        .min(1, { error: CODE_RULE })
        .max(64, { error: "must be at most 64 characters" })
        .openapi({
          description:
            "The enrollment code from the QR code or the administrator: 16 characters, in any letter case, with or without its dashes.",
          example: "7K3M-Q9XD-2HAV-PT4N",
        }),
      device_name: z
        .string({ error: "must be text" })
        .refine((name) => !CONTROL.test(name), { error: "must not contain control characters" })
        .nullish()
        .openapi({
          description:
            "Optional, without control characters: added to the key's name in brackets, so that the dashboard tells the phones apart. The composed name is cut to its first 100 characters (code points); a longer device name is never refused.",
          example: "Pixel 8 of Asha",
        }),
    },
    { error: "must be a JSON object" },
  )
  .openapi("EnrollmentExchange");

export const EnrolledKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    mode: z.enum(["test", "live"]),
    prefix: z.string().openapi({ description: "The secret's start: enough to recognize the key, useless to use it" }),
    created_at: z.string(),
    expires_at: z.string().nullable(),
    revoked_at: z.string().nullable(),
    replaces: z.string().nullable(),
    replaced_by: z.string().nullable(),
    scopes: z.array(z.enum(["read", "write"])),
    agent_id: z.number().int().nullable(),
    rotation: z
      .object({
        state: z.enum(["due", "rotated", "rolled"]),
        requested_at: z.string().nullable(),
        rotated_at: z.string().nullable(),
        successor_id: z.string().nullable(),
        old_key_uses_after_successor: z.number().int(),
      })
      .nullable()
      .openapi({ description: "Null for a key just made; a retry may find it asked to rotate since (section 9)" }),
    status: z.enum(["active", "grace", "expired", "revoked"]),
    secret: z.string().openapi({
      description: "The API key itself: keep it in the app's secure storage. The service keeps only its hash.",
    }),
  })
  .openapi("EnrolledKey");
