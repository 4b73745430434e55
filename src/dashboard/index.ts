// The administrator's side of the worker: the dashboard pages and the JSON admin API. Mounted
// beside the API, never inside it: these take the administrator credential, not API keys.
import { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { adminRoutes } from "../admin/routes.ts";
import { dashboardRoutes } from "./routes.tsx";

export const dashboardApp = new Hono<AppEnv>().route("/", dashboardRoutes).route("/", adminRoutes);
