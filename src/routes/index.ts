// Every API endpoint, each served under /api and at the root. index.ts puts authentication and the
// rate limit in front of each one in apiRoutes, so a route listed there cannot be left open; the
// few in publicRoutes answer without a key and serve no data.
import * as healthz from "./healthz.ts";
import * as areas from "./areas.list.ts";
import * as customersCreate from "./customers.create.ts";
import * as customersList from "./customers.list.ts";
import * as ordersList from "./orders.list.ts";
import * as postalcodes from "./postalcodes.list.ts";
import * as salesagentsByPincode from "./salesagents.by-pincode.ts";
import * as salesagents from "./salesagents.list.ts";

export const API_PREFIX = "/api";

export const apiRoutes = [
  customersList,
  customersCreate,
  ordersList,
  salesagentsByPincode,
  areas,
  { route: areas.aliasRoute, handler: areas.handler },
  postalcodes,
  salesagents,
];

/** Served without a key: they must read no data. */
export const publicRoutes = [healthz];
