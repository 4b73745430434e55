// The field app's list rows (app/src/search.ts): what a row shows of a customer and what a search finds.
import { describe, expect, it } from "vitest";
import { fold, matches, rowOf } from "../../app/src/search.ts";
import type { Customer } from "../../app/src/types.ts";

const shop = (address: unknown) =>
  ({
    id: 7,
    company_name: "Ahmedabad Stores",
    contact_person_name: "Tejas Bhosale",
    contactperson_number: "(+91) 83889-84038",
    customer_code: "C-7",
    address,
  }) as unknown as Customer;

describe("a list row", () => {
  it("shows the contact, the area and the number, and finds the shop by any of them", () => {
    const row = rowOf(shop({ area: { name: "Maninagar" }, postalcode: { id: 1, code: "380008" } }));
    expect({ title: row.title, sub: row.sub }).toEqual({
      title: "Ahmedabad Stores",
      sub: "Tejas Bhosale · Maninagar · (+91) 83889-84038",
    });
    for (const query of ["tejas", "MANINAGAR", "83889-84", "c-7", "ahmedabad st"])
      expect(matches(row.folded, fold(query)), query).toBe(true);
  });

  it("leaves out the area of a shop with no address, with no empty part between the dots", () => {
    expect(rowOf(shop([])).sub).toBe("Tejas Bhosale · (+91) 83889-84038");
  });
});
