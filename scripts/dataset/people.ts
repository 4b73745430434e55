// Indian names, company names, phone numbers and e-mail addresses. Their words are data, names.json
// (names by region, the words of company names, e-mail hosts; a word repeated is drawn more often).
import names from "./names.json" with { type: "json" };
import { Rng } from "./prng.ts";

export const REGIONS = ["north", "west", "south", "east", "punjab"] as const;
export type Region = (typeof REGIONS)[number];

export type Person = ReturnType<typeof personName>;
export type Company = ReturnType<typeof companyName>;

export function personName(rng: Rng, region: Region) {
  // Most people of a city carry its region's names; big cities draw from everywhere.
  const from = rng.chance(0.8) ? region : rng.pick(REGIONS);
  return { firstName: rng.pick(names.firstNames[from]), lastName: rng.pick(names.surnames[from]) };
}

export function companyName(rng: Rng, owner: Person, city: string) {
  const shape = rng.int(0, 5);
  let base: string;
  if (shape === 0) base = `${owner.lastName} ${rng.pick(names.trades)}`;
  else if (shape === 1) base = `${owner.lastName} & Sons`;
  else if (shape === 2) base = `${owner.lastName} Brothers`;
  else if (shape === 3) base = `${city} ${rng.pick(names.trades)}`;
  else base = `${rng.pick(names.blessings)} ${rng.pick(names.trades)}`;
  const legal = shape === 1 || shape === 2 ? "" : rng.pick(names.legal);
  const name = `${base}${legal}`;
  // The GSTIN's PAN entity letter: C company, F firm or LLP, P proprietor.
  const panEntity =
    legal === " Pvt Ltd" ? "C" : legal === " LLP" || legal === " & Co." || shape === 1 || shape === 2 ? "F" : "P";
  // Letters for a plausible e-mail domain.
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

/** The ways people write a mobile number (`a` its first five digits, `b` the rest); all normalize alike. */
const MOBILE_FORMS = {
  plain: (a, b) => `${a}${b}`,
  "spaced+91": (a, b) => `+91 ${a} ${b}`,
  trunk0: (a, b) => `0${a} ${b}`,
  "dashed+91": (a, b) => `+91-${a}-${b}`,
  "91": (a, b) => `91${a}${b}`,
  bracketed: (a, b) => `(+91) ${a}-${b}`,
  split: (a, b) => `${a} ${b}`,
} satisfies Record<string, (a: string, b: string) => string>;

export function writeMobile(form: keyof typeof MOBILE_FORMS, digits: string): string {
  return MOBILE_FORMS[form](digits.slice(0, 5), digits.slice(5));
}

export function writtenMobile(rng: Rng, digits: string): string {
  const forms = ["plain", "spaced+91", "trunk0", "dashed+91", "91", "bracketed", "split"] as const;
  return writeMobile(rng.weighted(forms, [70, 10, 7, 5, 4, 2, 2]), digits);
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
  return `${local}@${rng.pick(names.mailHosts)}`;
}

export function companyEmail(rng: Rng, company: Company): string {
  return `${rng.pick(["accounts", "sales", "info", "orders", "purchase"])}@${company.slug}.${rng.pick(["in", "com", "co.in"])}`;
}
