// The dashboard pages, mounted beside the API and the JSON admin API (src/admin/), never inside
// them: they take the administrator's session, not API keys. They use the admin module's key
// actions and session; the admin module never uses the dashboard.
import { Hono } from "hono";
import type { AppEnv } from "../platform/env.ts";
import { dashboardRoutes } from "./dashboard.routes.tsx";

export const dashboardApp = new Hono<AppEnv>().route("/", dashboardRoutes);
