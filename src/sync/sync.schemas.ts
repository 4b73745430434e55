// A sync answer (section 8): changes whose records are the items of GET /customers and GET /orders.
import { z } from "@hono/zod-openapi";
import { CustomerSchema, customerExample } from "../customers/customers.schemas.ts";
import { OrderSchema } from "../orders/orders.schemas.ts";

/** A first sync's cursor after customer 1 (the walk pinned at seq 0). */
export const walkCursorExample = "eyJiIjo3LCJoIjoxLCJzIjowLCJ3IjpbMSwwLCIiXX0";

/** A change of one record type: `data` is the listing's item, null for a delete. */
function changeOf<T extends string, R extends z.ZodType>(type: T, record: R, name: string, listing: string) {
  return z
    .object({
      type: z.literal(type),
      id: z.number().int(),
      op: z.enum(["upsert", "delete"]),
      data: z.union([record, z.null()]),
    })
    .openapi(name, {
      description: `A change to a record of the book: \`data\` is the ${type} as ${listing} lists it, null for a delete`,
    });
}

const CustomerChangeSchema = changeOf("customer", CustomerSchema, "CustomerChange", "GET /customers");
const OrderChangeSchema = changeOf("order", OrderSchema, "OrderChange", "GET /orders");

export const ChangeSchema = z.discriminatedUnion("type", [CustomerChangeSchema, OrderChangeSchema]);

export type Change = z.infer<typeof ChangeSchema>;

export const SyncAnswerSchema = z
  .object({
    data: z.object({
      changes: z.array(ChangeSchema),
      next_cursor: z.string().openapi({
        description: "Send it as `cursor` next time; the same cursor as sent when there were no changes",
      }),
      has_more: z.boolean().openapi({ description: "Ask again with next_cursor at once: more changes are waiting" }),
    }),
  })
  .openapi("SyncAnswer", {
    example: {
      data: {
        changes: [
          { type: "customer", id: 1, op: "upsert", data: customerExample },
          { type: "order", id: 98, op: "delete", data: null },
        ],
        next_cursor: walkCursorExample,
        has_more: true,
      },
    },
  });
