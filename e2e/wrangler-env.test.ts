// The environment that `npm start`, `npm run dev` and the benchmark's floors give `wrangler dev`.
import { describe, expect, it } from "vitest";
import { wranglerEnv } from "../scripts/lib/wrangler-env.ts";

describe("wranglerEnv", () => {
  it("turns the devtools inspector proxy and the local trace store off and skips the request.cf download by default", () => {
    const env = wranglerEnv({ PATH: "/bin" });
    expect(env).toEqual({
      PATH: "/bin",
      CLOUDFLARE_CF_FETCH_ENABLED: "false",
      X_LOCAL_OBSERVABILITY: "false",
      VSCODE_INSPECTOR_OPTIONS: "{}",
    });
    // Wrangler tests the variable for truth: an empty one would leave the proxy on.
    expect(wranglerEnv({ INSPECT: "", VSCODE_INSPECTOR_OPTIONS: "" })).toEqual({
      INSPECT: "",
      CLOUDFLARE_CF_FETCH_ENABLED: "false",
      X_LOCAL_OBSERVABILITY: "false",
      VSCODE_INSPECTOR_OPTIONS: "{}",
    });
  });

  it("leaves the inspector proxy on with INSPECT=1, even inside a VS Code debug terminal", () => {
    expect(wranglerEnv({ INSPECT: "1", VSCODE_INSPECTOR_OPTIONS: '{"x":1}' })).toEqual({
      INSPECT: "1",
      CLOUDFLARE_CF_FETCH_ENABLED: "false",
      X_LOCAL_OBSERVABILITY: "false",
    });
  });

  it("keeps the operator's own settings", () => {
    expect(
      wranglerEnv({
        INSPECT: "0",
        CLOUDFLARE_CF_FETCH_ENABLED: "true",
        X_LOCAL_OBSERVABILITY: "true",
        VSCODE_INSPECTOR_OPTIONS: '{"x":1}',
      }),
    ).toEqual({
      INSPECT: "0",
      CLOUDFLARE_CF_FETCH_ENABLED: "true",
      X_LOCAL_OBSERVABILITY: "true",
      VSCODE_INSPECTOR_OPTIONS: '{"x":1}',
    });
  });

  it("refuses an INSPECT value it does not know", () => {
    expect(() => wranglerEnv({ INSPECT: "yes" })).toThrow('INSPECT must be 1 (devtools inspector on) or 0, got "yes"');
  });
});
