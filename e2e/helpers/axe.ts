// Accessibility checks with axe-core (from npm) inside the page under test: WCAG 2.1 A and AA rules,
// failing on any serious or critical violation and naming each one (docs/development.md, "Tests and checks").
import axe from "axe-core";
import type { Page } from "playwright-core";
import { expect } from "vitest";

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const FAILING: (string | null | undefined)[] = ["serious", "critical"];

export interface Violation {
  id: string;
  impact: string;
  help: string;
  /** CSS selectors of the first few offending elements. */
  targets: string[];
  count: number;
}

/** Every WCAG 2.1 A/AA violation on the page as it is now, of any impact. */
export async function axeViolations(page: Page): Promise<Violation[]> {
  // Evaluated rather than added as a <script>: the pages' Content-Security-Policy allows no inline
  // script, and the check must not loosen it.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axe.source);
  return page.evaluate(async (tags) => {
    const inPage = (window as unknown as { axe: typeof axe }).axe;
    const results = await inPage.run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? "unknown",
      help: v.help,
      targets: v.nodes.slice(0, 3).map((n) => n.target.join(" ")),
      count: v.nodes.length,
    }));
  }, TAGS);
}

/** Fails, listing each violation's id, impact and where, when the page has a serious or critical one. */
export async function expectNoSeriousViolations(page: Page, what: string): Promise<void> {
  const failing = (await axeViolations(page)).filter((v) => FAILING.includes(v.impact));
  const summary = failing.map((v) => `${v.id} (${v.impact}, ${v.count}x: ${v.help}; e.g. ${v.targets.join(", ")})`);
  expect(
    failing.map((v) => v.id),
    `axe on ${what}:\n  ${summary.join("\n  ")}`,
  ).toEqual([]);
}
