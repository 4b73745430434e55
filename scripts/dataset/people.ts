// Indian names, company names, phone numbers and e-mail addresses.
import type { Region } from "./geography.ts";
import names from "./names.json" with { type: "json" };
import { Rng } from "./prng.ts";

/** names.json: first names and surnames by region, the words of company names, e-mail hosts (a word repeated is drawn more often). */
const {
  firstNames: FIRST_NAMES,
  surnames: SURNAMES,
  blessings: BLESSINGS,
  trades: TRADES,
  legal: LEGAL,
  mailHosts: MAIL_HOSTS,
} = names as {
  firstNames: Record<Region, string[]>;
  surnames: Record<Region, string[]>;
  blessings: string[];
  trades: string[];
  legal: string[];
  mailHosts: string[];
};
const REGIONS: readonly Region[] = ["north", "west", "south", "east", "punjab"];

export interface Person {
  firstName: string;
  lastName: string;
}

export function personName(rng: Rng, region: Region): Person {
  // Most people of a city carry its region's names; big cities draw from everywhere.
  const from = rng.chance(0.8) ? region : rng.pick(REGIONS);
  return { firstName: rng.pick(FIRST_NAMES[from]), lastName: rng.pick(SURNAMES[from]) };
}

export interface Company {
  name: string;
  /** The GSTIN's PAN entity letter: C company, F firm or LLP, P proprietor. */
  panEntity: string;
  /** Letters for a plausible e-mail domain. */
  slug: string;
}

export function companyName(rng: Rng, owner: Person, city: string): Company {
  const shape = rng.int(0, 5);
  let base: string;
  if (shape === 0) base = `${owner.lastName} ${rng.pick(TRADES)}`;
  else if (shape === 1) base = `${owner.lastName} & Sons`;
  else if (shape === 2) base = `${owner.lastName} Brothers`;
  else if (shape === 3) base = `${city} ${rng.pick(TRADES)}`;
  else base = `${rng.pick(BLESSINGS)} ${rng.pick(TRADES)}`;
  const legal = shape === 1 || shape === 2 ? "" : rng.pick(LEGAL);
  const name = `${base}${legal}`;
  const panEntity =
    legal === " Pvt Ltd" ? "C" : legal === " LLP" || legal === " & Co." || shape === 1 || shape === 2 ? "F" : "P";
  const slug = base
    .toLowerCase()
    .replace(/&/g, "and")
    .replace(/[^a-z]/g, "");
  return { name, panEntity, slug };
}

/**
 * A distinct 10-digit mobile number (first digit 6-9) for each index: an affine bijection on
 * [6000000000, 9999999999], so that numbers look random yet never repeat. Index 0 is 9820000001.
 */
export function mobileNumber(index: number, stream = 0): string {
  const span = 4_000_000_000;
  // Odd and not a multiple of 5: coprime with the span (2^11 * 5^9), so the map is one-to-one.
  const multiplier = 2_654_435_761;
  const offset = 3_820_000_001 + stream * 1_234_567_891;
  // Exact while index * multiplier stays below 2^53 (index < 3.39 million).
  return String(6_000_000_000 + ((index * multiplier + offset) % span));
}

/** The ways people write a mobile number; all normalize to the same ten digits. */
export function writtenMobile(rng: Rng, digits: string): string {
  const form = rng.weighted(
    ["plain", "spaced+91", "trunk0", "dashed+91", "91", "bracketed", "split"] as const,
    [70, 10, 7, 5, 4, 2, 2],
  );
  return writeMobile(form, digits);
}

export function writeMobile(
  form: "plain" | "spaced+91" | "trunk0" | "dashed+91" | "91" | "bracketed" | "split",
  digits: string,
): string {
  const a = digits.slice(0, 5);
  const b = digits.slice(5);
  switch (form) {
    case "plain":
      return digits;
    case "spaced+91":
      return `+91 ${a} ${b}`;
    case "trunk0":
      return `0${a} ${b}`;
    case "dashed+91":
      return `+91-${a}-${b}`;
    case "91":
      return `91${digits}`;
    case "bracketed":
      return `(+91) ${a}-${b}`;
    case "split":
      return `${a} ${b}`;
  }
}

export function landline(rng: Rng, std: string): string {
  const localLength = 10 - std.length + 1;
  return `${std}-${rng.int(2, 6)}${rng.digits(localLength - 1)}`;
}

export function personalEmail(rng: Rng, person: Person): string {
  const first = person.firstName.toLowerCase();
  const last = person.lastName.toLowerCase();
  const local = rng.pick([
    `${first}.${last}`,
    `${first}${last}`,
    `${first}${rng.int(1, 99)}`,
    `${first.charAt(0)}${last}${rng.int(70, 99)}`,
  ]);
  return `${local}@${rng.pick(MAIL_HOSTS)}`;
}

export function companyEmail(rng: Rng, company: Company): string {
  return `${rng.pick(["accounts", "sales", "info", "orders", "purchase"])}@${company.slug}.${rng.pick(["in", "com", "co.in"])}`;
}
