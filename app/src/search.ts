// The book's search: any part of the contact name, company name, phone number, area or customer
// code, letter case and spaces ignored (docs/specification.md section 10).
import type { Customer } from "./types.ts";

export const fold = (text: string): string => text.toLowerCase().replace(/\s+/g, "");

/** The text that a search looks in, folded once per record. */
export function haystack(c: Customer): string {
  const area = Array.isArray(c.address) ? "" : c.address.area.name;
  return fold(
    [c.contact_person_name, c.company_name, c.contactperson_number, area, c.customer_code ?? ""].join("\u0000"),
  );
}

export function matches(folded: string, query: string): boolean {
  return query === "" || folded.includes(query);
}
