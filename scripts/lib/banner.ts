// The short block that `npm start` and `npm run dev` print before wrangler's own output.

export interface BannerInput {
  title: string;
  port: number;
  persistDir: string;
  adminToken: string;
  adminTokenSource: "env" | "stored" | "generated";
  rateLimit: number;
  /** The demo key's secret (npm start), or null (npm run dev prints none). */
  demoKey: string | null;
  /** A phone number with orders, for the example request. */
  examplePhone: string | null;
  /** npm start's one-time link that opens the field app enrolled as a demo sales agent. */
  appLink?: string | null;
}

export function banner(input: BannerInput): string {
  const base = `http://127.0.0.1:${input.port}`;
  const key = input.demoKey ?? "<key>";
  const tokenNote = {
    env: "(from ADMIN_TOKEN)",
    stored: `(kept in ${input.persistDir}/admin-token)`,
    generated: `(new; kept in ${input.persistDir}/admin-token)`,
  }[input.adminTokenSource];
  const lines = [input.title, "", `  Base URL     ${base}   (the API is at ${base}/api/... and at the root)`];
  if (input.demoKey) {
    lines.push(`  Demo key     ${input.demoKey}`);
    lines.push("               (test mode; a new one at each start, the previous one keeps working for 24 hours)");
  } else {
    lines.push("  API key      make one with: npm run keys -- create --mode test --name NAME");
  }
  lines.push(`  Admin token  ${input.adminToken}   ${tokenNote}`);
  lines.push(`  Dashboard    ${base}/dashboard`);
  if (input.appLink) {
    lines.push(`  Field app    ${input.appLink}`);
    lines.push("               (opens the app at /app/ enrolled as the demo sales agent; the link works once)");
  } else {
    lines.push(`  Field app    ${base}/app/   (enroll with a code: npm run keys -- enroll --agent ID --mode test)`);
  }
  lines.push(
    `  Rate limit   ${input.rateLimit === 0 ? "off (RATE_LIMIT_PER_MINUTE=0)" : `${input.rateLimit} requests a minute per key`}`,
  );
  lines.push(`  State        ${input.persistDir}`);
  lines.push("", "  Try:");
  lines.push(`    curl -H "Authorization: Bearer ${key}" ${base}/api/customers`);
  if (input.examplePhone) {
    lines.push(`    curl -H "Authorization: Bearer ${key}" "${base}/api/orders?phone_number=${input.examplePhone}"`);
  }
  const rule = "-".repeat(78);
  return `\n${rule}\n${lines.join("\n")}\n${rule}\n`;
}
