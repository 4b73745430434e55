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

/**
 * `count` orders of one customer in four statements: order n (1 to count) has id `firstId` + n - 1,
 * the date 2020-01-01 plus n / 2 days (two orders a day, so dates tie), 1 + n % 3 lines,
 * 1 + n % 2 statuses and, when n is even, an invoice (its id the order's). Two customers' newest
 * orders have the same shape when their counts are equal modulo 6.
 */
export function generatedOrderStatements(customerId: number, count: number, firstId: number): D1PreparedStatement[] {
  const n = `(o.id - ${firstId} + 1)`;
  const ofCustomer = `o.customer_id = ${customerId} AND o.id >= ${firstId}`;
  return [
    env.DB.prepare(
      `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${count})
       INSERT INTO orders (id, order_no, customer_id, salesagent_id, deliveryagent_id, date, item_total_amount, discount_amount,
         return_total_amount, billable_amount)
       SELECT ${firstId} + n - 1, 'GEN-${customerId}-' || n, ${customerId}, 1 + n % 2, CASE WHEN n % 4 = 0 THEN NULL ELSE 1 END,
         date('2020-01-01', '+' || (n / 2) || ' days'), 100, 0, 0, 100 FROM seq`,
    ),
    env.DB.prepare(
      `WITH RECURSIVE line(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM line WHERE k < 3)
       INSERT INTO order_items (order_id, line_no, product_id, quantity, price)
       SELECT o.id, line.k, 1 + line.k % 3, 1, 10 FROM orders o JOIN line ON line.k <= 1 + ${n} % 3 WHERE ${ofCustomer}`,
    ),
    env.DB.prepare(
      `WITH RECURSIVE s(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM s WHERE k < 2)
       INSERT INTO order_statuses (order_id, seq, name, at)
       SELECT o.id, s.k, CASE s.k WHEN 1 THEN 'Placed' ELSE 'Delivered' END, o.date || 'T1' || s.k || ':00:00Z'
       FROM orders o JOIN s ON s.k <= 1 + ${n} % 2 WHERE ${ofCustomer}`,
    ),
    env.DB.prepare(
      `INSERT INTO invoices (id, order_id, invoice_number, date, due_date, total_amount, discount_amount, returned_amount,
         invoice_amount, cgst, sgst, igst)
       SELECT o.id, o.id, 'GEN-INV-' || o.id, o.date, o.date, 100, 0, 0, 100, 9, 9, 0 FROM orders o WHERE ${ofCustomer} AND ${n} % 2 = 0`,
    ),
  ];
}

/**
 * `perCustomer` orders of each customer from `firstCustomer` to `lastCustomer`, in four statements:
 * each order has 3 lines, 2 statuses and 1 invoice (its id the order's); ids from `firstId` on,
 * a customer's orders consecutive, its order k dated 2021-01-01 plus k days.
 */
export function generatedBookOrderStatements(
  firstCustomer: number,
  lastCustomer: number,
  perCustomer: number,
  firstId: number,
): D1PreparedStatement[] {
  const count = (lastCustomer - firstCustomer + 1) * perCustomer;
  const mine = `o.id >= ${firstId} AND o.id < ${firstId + count}`;
  return [
    env.DB.prepare(
      `WITH RECURSIVE seq(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < ${count - 1})
       INSERT INTO orders (id, order_no, customer_id, salesagent_id, deliveryagent_id, date, item_total_amount, discount_amount,
         return_total_amount, billable_amount)
       SELECT ${firstId} + n, 'BOOK-' || (${firstId} + n), ${firstCustomer} + n / ${perCustomer}, 1, 1,
         date('2021-01-01', '+' || (n % ${perCustomer}) || ' days'), 30, 0, 0, 30 FROM seq`,
    ),
    env.DB.prepare(
      `WITH RECURSIVE line(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM line WHERE k < 3)
       INSERT INTO order_items (order_id, line_no, product_id, quantity, price)
       SELECT o.id, line.k, line.k, 1, 10 FROM orders o CROSS JOIN line WHERE ${mine}`,
    ),
    env.DB.prepare(
      `WITH RECURSIVE s(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM s WHERE k < 2)
       INSERT INTO order_statuses (order_id, seq, name, at)
       SELECT o.id, s.k, CASE s.k WHEN 1 THEN 'Placed' ELSE 'Delivered' END, o.date || 'T1' || s.k || ':00:00Z'
       FROM orders o CROSS JOIN s WHERE ${mine}`,
    ),
    env.DB.prepare(
      `INSERT INTO invoices (id, order_id, invoice_number, date, due_date, total_amount, discount_amount, returned_amount,
         invoice_amount, cgst, sgst, igst)
       SELECT o.id, o.id, 'BOOK-INV-' || o.id, o.date, o.date, 30, 0, 0, 30, 2.7, 2.7, 0 FROM orders o WHERE ${mine}`,
    ),
  ];
}
