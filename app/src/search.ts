// The book's search: any part of the contact name, company name, phone number, area or customer
// code, letter case and spaces ignored (docs/specification.md section 10).
import type { Customer } from "./types.ts";

/** Rows in the list at once: a keystroke updates these only; "Show more" (or scrolling to it) adds as many again. */
export const PAGE_ROWS = 30;

export const fold = (text: string): string => text.toLowerCase().replace(/\s+/g, "");

/** What the list shows of a customer, and the folded text a search looks in: kept in IndexedDB with the book. */
export interface Row {
  id: number;
  title: string;
  sub: string;
  folded: string;
}

export function rowOf(c: Customer): Row {
  const area = Array.isArray(c.address) ? "" : c.address.area.name;
  return {
    id: c.id,
    title: c.company_name,
    // A customer with no address has no area: no empty part between the dots.
    sub: [c.contact_person_name, area, c.contactperson_number].filter((part) => part !== "").join(" · "),
    folded: fold(
      [c.contact_person_name, c.company_name, c.contactperson_number, area, c.customer_code ?? ""].join("\u0000"),
    ),
  };
}

const collator = new Intl.Collator("en-IN");
export const byTitle = (a: Row, b: Row): number => collator.compare(a.title, b.title) || a.id - b.id;

export function matches(folded: string, query: string): boolean {
  return query === "" || folded.includes(query);
}
