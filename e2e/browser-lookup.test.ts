// Where the browser tests look for Chromium or Chrome (./helpers/browser.ts), on made-up systems:
// no browser is needed, and none is launched.
import { describe, expect, it } from "vitest";
import { findBrowser, type LookupSystem } from "./helpers/browser.ts";

function system(env: NodeJS.ProcessEnv, executables: string[], platform: NodeJS.Platform = "linux"): LookupSystem {
  return { env, platform, isExecutable: (path) => executables.includes(path) };
}

describe("findBrowser", () => {
  it("takes CHROME_PATH first, then CHROMIUM_PATH", () => {
    const both = { CHROME_PATH: "/x/chrome", CHROMIUM_PATH: "/y/chromium", PATH: "/usr/bin" };
    expect(findBrowser(system(both, ["/x/chrome", "/y/chromium", "/usr/bin/chromium"]))).toEqual({ path: "/x/chrome" });
    expect(findBrowser(system({ CHROMIUM_PATH: "/y/chromium" }, ["/y/chromium"]))).toEqual({ path: "/y/chromium" });
  });

  it("looks nowhere else when the variable names no executable, and says so", () => {
    const lookup = findBrowser(system({ CHROME_PATH: "/nonexistent", PATH: "/usr/bin" }, ["/usr/bin/chromium"]));
    expect(lookup).toEqual({ reason: "CHROME_PATH=/nonexistent is not an executable file" });
  });

  it("then tries the command names on PATH, in order of name, then of directory", () => {
    const env = { PATH: "/opt/a:/opt/b" };
    expect(findBrowser(system(env, ["/opt/b/chromium", "/opt/a/google-chrome"]))).toEqual({ path: "/opt/b/chromium" });
    expect(findBrowser(system(env, ["/opt/a/google-chrome-stable", "/opt/b/chrome"]))).toEqual({
      path: "/opt/a/google-chrome-stable",
    });
  });

  it("then the usual install locations", () => {
    expect(findBrowser(system({ PATH: "/nowhere" }, ["/opt/google/chrome/chrome"]))).toEqual({
      path: "/opt/google/chrome/chrome",
    });
    expect(findBrowser(system({ PATH: "/nowhere" }, ["/snap/bin/chromium"]))).toEqual({ path: "/snap/bin/chromium" });
    const mac = "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome";
    expect(findBrowser(system({ PATH: "/usr/bin" }, [mac], "darwin"))).toEqual({ path: mac });
  });

  it("without any, says where it looked", () => {
    const lookup = findBrowser(system({ PATH: "/usr/bin" }, []));
    expect(lookup.path).toBeUndefined();
    expect("reason" in lookup && lookup.reason).toMatch(
      /^no Chromium or Chrome found \(CHROME_PATH and CHROMIUM_PATH unset; not on PATH as chromium, .*; not at \/usr\/bin\/chromium, /,
    );
  });

  it("BROWSER_TESTS=off turns the browser tests off whatever is installed", () => {
    expect(findBrowser(system({ BROWSER_TESTS: "off", PATH: "/usr/bin" }, ["/usr/bin/chromium"]))).toEqual({
      reason: "BROWSER_TESTS=off",
    });
  });
});
