import { env } from "cloudflare:workers";

/** The first id (and phone 95000000NN) of generated customers: the fixture's customers end at 25. */
export const FIRST_GENERATED_ID = 26;

/**
 * Thousands of customers in two statements, each with one address, all bound to one sales agent:
 * SQL generates them (the importer is for files, and slower). Ids from 26, contact number and
 * phone key "95" and the id in eight digits.
 */
export function generatedCustomerStatements(count: number, agentId: number): D1PreparedStatement[] {
  const first = FIRST_GENERATED_ID;
  const last = first - 1 + count;
  return [
    env.DB.prepare(
      `WITH RECURSIVE seq(n) AS (SELECT ${first} UNION ALL SELECT n + 1 FROM seq WHERE n < ${last})
       INSERT INTO customers (id, contact_person_name, company_name, display_name, email, contactperson_number, phone_key,
         company_phone, gst_treatment, gstin, customer_code, status, approval, salesagent_id)
       SELECT n, 'Contact ' || n, 'Company ' || n, 'Company ' || n, NULL, '95' || printf('%08d', n), '95' || printf('%08d', n),
         NULL, 'Unregistered', NULL, NULL, 'Active', 'accepted', ${agentId} FROM seq`,
    ),
    env.DB.prepare(
      `INSERT INTO customer_addresses (customer_id, addressline1, addressline2, area_id, postalcode_id)
       SELECT id, id || ' Road', '', 1 + id % 3, 1 + id % 5 FROM customers WHERE id >= ${first}`,
    ),
  ];
}
