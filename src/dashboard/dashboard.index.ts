// The dashboard pages, mounted beside the API and the JSON admin API, never inside them: they take the
// administrator's session, not API keys.
import { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { dashboardRoutes } from "./dashboard.routes.tsx";

export const dashboardApp = new Hono<AppEnv>().route("/", dashboardRoutes);
