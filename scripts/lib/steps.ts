// The steps of an operator's command (check, deploy): each printed as it starts and ends, and a
// failure named by its step. A dry run skips the steps that need the Cloudflare account and says so.

export interface Step {
  name: string;
  run: () => Promise<unknown>;
  /** Acts on the Cloudflare account: a dry run skips it. */
  account?: boolean;
}

/** A step that failed: `step` is its name. */
export class StepFailed extends Error {
  override readonly name = "StepFailed";
  constructor(
    readonly step: string,
    readonly reason: string,
  ) {
    super(`step "${step}" failed: ${reason}`);
  }
}

export async function runSteps(steps: Step[], options: { dryRun?: boolean } = {}) {
  const report = { ran: [] as string[], skipped: [] as string[] };
  for (const [index, step] of steps.entries()) {
    const label = `[${index + 1}/${steps.length}] ${step.name}`;
    if (step.account && options.dryRun) {
      console.log(`\n- ${label}: skipped (dry run: it needs the Cloudflare account)`);
      report.skipped.push(step.name);
      continue;
    }
    console.log(`\n> ${label}`);
    const started = performance.now();
    try {
      await step.run();
    } catch (err) {
      throw new StepFailed(step.name, err instanceof Error ? err.message : String(err));
    }
    console.log(`ok ${label} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    report.ran.push(step.name);
  }
  return report;
}
