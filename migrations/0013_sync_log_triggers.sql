-- Custom SQL migration, written by hand: made with
--   npx drizzle-kit generate --custom --config drizzle/drizzle.config.ts --name sync_log_triggers
-- because drizzle-kit does not generate triggers. The tables are in drizzle/schema.ts (sync_log,
-- sync_import_floor); what marks what is docs/specification.md section 8, "The change log".
--
-- Why triggers: every writer of a record table (POST /customers/create, the importer, anything
-- later) feeds the log in the statement that makes the change, inside its transaction, so no write
-- path can forget it and the entry commits with the change or not at all. Why AUTOINCREMENT: its
-- numbers are never reused (not even after the top entry is replaced or purged) and D1 has one
-- writer, so a later commit always gets higher numbers. An entry is rewritten with INSERT OR
-- REPLACE: the old row goes and the new one takes a new number, so a record has one entry per
-- book. Writers of these tables use no OR clause of their own (an outer OR IGNORE would override
-- the triggers' REPLACE). Only shown columns are compared (IS NOT, so NULLs count): an update that
-- changes nothing shown, such as customers.origin or phone_key, logs nothing. A status marks its
-- order only when it is, or was, the order's last one (latest `at`, then higher `seq`, as
-- GET /orders reads it). Lookups (areas, cities, ...) have no triggers: only the importer writes
-- them, and it marks the records that show a changed lookup in the same batch.
-- A migration that rebuilds one of these tables drops its triggers: it must create them again.
CREATE TRIGGER customers_sync_insert AFTER INSERT ON customers WHEN NEW.salesagent_id IS NOT NULL BEGIN
  DELETE FROM sync_changes WHERE kind = 'customer' AND (book, record_id) IN (
      SELECT NEW.salesagent_id AS book, NEW.id AS id)
    AND NOT (deleted = 0 AND seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor));
  INSERT INTO sync_changes (book, kind, record_id, deleted, changed_at)
    SELECT m.book, 'customer', m.id, 0, unixepoch() FROM (
      SELECT NEW.salesagent_id AS book, NEW.id AS id) AS m
    WHERE m.book IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_changes AS f
      WHERE f.book = m.book AND f.kind = 'customer' AND f.record_id = m.id);
END;
--> statement-breakpoint
CREATE TRIGGER customers_sync_edit AFTER UPDATE ON customers
  WHEN NEW.salesagent_id IS NOT NULL AND OLD.salesagent_id IS NEW.salesagent_id AND (
    OLD.contact_person_name IS NOT NEW.contact_person_name OR
    OLD.company_name IS NOT NEW.company_name OR OLD.display_name IS NOT NEW.display_name OR
    OLD.email IS NOT NEW.email OR OLD.contactperson_number IS NOT NEW.contactperson_number OR
    OLD.company_phone IS NOT NEW.company_phone OR OLD.gst_treatment IS NOT NEW.gst_treatment OR
    OLD.gstin IS NOT NEW.gstin OR OLD.customer_code IS NOT NEW.customer_code OR
    OLD.status IS NOT NEW.status OR OLD.approval IS NOT NEW.approval) BEGIN
  DELETE FROM sync_changes WHERE kind = 'customer' AND (book, record_id) IN (
      SELECT NEW.salesagent_id AS book, NEW.id AS id)
    AND NOT (deleted = 0 AND seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor));
  INSERT INTO sync_changes (book, kind, record_id, deleted, changed_at)
    SELECT m.book, 'customer', m.id, 0, unixepoch() FROM (
      SELECT NEW.salesagent_id AS book, NEW.id AS id) AS m
    WHERE m.book IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_changes AS f
      WHERE f.book = m.book AND f.kind = 'customer' AND f.record_id = m.id);
  DELETE FROM sync_changes WHERE kind = 'order' AND (book, record_id) IN (
      SELECT NEW.salesagent_id AS book, id FROM orders WHERE customer_id = NEW.id
      AND (OLD.contact_person_name IS NOT NEW.contact_person_name OR
        OLD.company_name IS NOT NEW.company_name OR OLD.display_name IS NOT NEW.display_name OR
        OLD.email IS NOT NEW.email OR OLD.contactperson_number IS NOT NEW.contactperson_number OR
        OLD.company_phone IS NOT NEW.company_phone OR OLD.gst_treatment IS NOT NEW.gst_treatment OR
        OLD.gstin IS NOT NEW.gstin OR OLD.customer_code IS NOT NEW.customer_code))
    AND NOT (deleted = 0 AND seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor));
  INSERT INTO sync_changes (book, kind, record_id, deleted, changed_at)
    SELECT m.book, 'order', m.id, 0, unixepoch() FROM (
      SELECT NEW.salesagent_id AS book, id FROM orders WHERE customer_id = NEW.id
      AND (OLD.contact_person_name IS NOT NEW.contact_person_name OR
        OLD.company_name IS NOT NEW.company_name OR OLD.display_name IS NOT NEW.display_name OR
        OLD.email IS NOT NEW.email OR OLD.contactperson_number IS NOT NEW.contactperson_number OR
        OLD.company_phone IS NOT NEW.company_phone OR OLD.gst_treatment IS NOT NEW.gst_treatment OR
        OLD.gstin IS NOT NEW.gstin OR OLD.customer_code IS NOT NEW.customer_code)) AS m
    WHERE m.book IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_changes AS f
      WHERE f.book = m.book AND f.kind = 'order' AND f.record_id = m.id);
END;
--> statement-breakpoint
CREATE TRIGGER customers_sync_move AFTER UPDATE OF salesagent_id ON customers
  WHEN OLD.salesagent_id IS NOT NEW.salesagent_id BEGIN
  DELETE FROM sync_changes WHERE kind = 'customer' AND (book, record_id) IN (
      SELECT OLD.salesagent_id AS book, OLD.id AS id)
    AND NOT (deleted = 1 AND seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor));
  INSERT INTO sync_changes (book, kind, record_id, deleted, changed_at)
    SELECT m.book, 'customer', m.id, 1, unixepoch() FROM (
      SELECT OLD.salesagent_id AS book, OLD.id AS id) AS m
    WHERE m.book IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_changes AS f
      WHERE f.book = m.book AND f.kind = 'customer' AND f.record_id = m.id);
  DELETE FROM sync_changes WHERE kind = 'order' AND (book, record_id) IN (
      SELECT OLD.salesagent_id AS book, id FROM orders WHERE customer_id = OLD.id)
    AND NOT (deleted = 1 AND seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor));
  INSERT INTO sync_changes (book, kind, record_id, deleted, changed_at)
    SELECT m.book, 'order', m.id, 1, unixepoch() FROM (
      SELECT OLD.salesagent_id AS book, id FROM orders WHERE customer_id = OLD.id) AS m
    WHERE m.book IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_changes AS f
      WHERE f.book = m.book AND f.kind = 'order' AND f.record_id = m.id);
  DELETE FROM sync_changes WHERE kind = 'customer' AND (book, record_id) IN (
      SELECT NEW.salesagent_id AS book, NEW.id AS id)
    AND NOT (deleted = 0 AND seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor));
  INSERT INTO sync_changes (book, kind, record_id, deleted, changed_at)
    SELECT m.book, 'customer', m.id, 0, unixepoch() FROM (
      SELECT NEW.salesagent_id AS book, NEW.id AS id) AS m
    WHERE m.book IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_changes AS f
      WHERE f.book = m.book AND f.kind = 'customer' AND f.record_id = m.id);
  DELETE FROM sync_changes WHERE kind = 'order' AND (book, record_id) IN (
      SELECT NEW.salesagent_id AS book, id FROM orders WHERE customer_id = NEW.id)
    AND NOT (deleted = 0 AND seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor));
  INSERT INTO sync_changes (book, kind, record_id, deleted, changed_at)
    SELECT m.book, 'order', m.id, 0, unixepoch() FROM (
      SELECT NEW.salesagent_id AS book, id FROM orders WHERE customer_id = NEW.id) AS m
    WHERE m.book IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_changes AS f
      WHERE f.book = m.book AND f.kind = 'order' AND f.record_id = m.id);
END;
--> statement-breakpoint
CREATE TRIGGER customers_sync_delete AFTER DELETE ON customers WHEN OLD.salesagent_id IS NOT NULL BEGIN
  DELETE FROM sync_changes WHERE kind = 'customer' AND (book, record_id) IN (
      SELECT OLD.salesagent_id AS book, OLD.id AS id)
    AND NOT (deleted = 1 AND seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor));
  INSERT INTO sync_changes (book, kind, record_id, deleted, changed_at)
    SELECT m.book, 'customer', m.id, 1, unixepoch() FROM (
      SELECT OLD.salesagent_id AS book, OLD.id AS id) AS m
    WHERE m.book IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_changes AS f
      WHERE f.book = m.book AND f.kind = 'customer' AND f.record_id = m.id);
END;
--> statement-breakpoint
CREATE TRIGGER customer_addresses_sync_insert AFTER INSERT ON customer_addresses BEGIN
  DELETE FROM sync_changes WHERE kind = 'customer' AND (book, record_id) IN (
      SELECT salesagent_id AS book, id FROM customers WHERE id = NEW.customer_id)
    AND NOT (deleted = 0 AND seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor));
  INSERT INTO sync_changes (book, kind, record_id, deleted, changed_at)
    SELECT m.book, 'customer', m.id, 0, unixepoch() FROM (
      SELECT salesagent_id AS book, id FROM customers WHERE id = NEW.customer_id) AS m
    WHERE m.book IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_changes AS f
      WHERE f.book = m.book AND f.kind = 'customer' AND f.record_id = m.id);
  DELETE FROM sync_changes WHERE kind = 'order' AND (book, record_id) IN (
      SELECT c.salesagent_id AS book, o.id FROM customers AS c JOIN orders AS o ON o.customer_id = c.id
      WHERE c.id = NEW.customer_id)
    AND NOT (deleted = 0 AND seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor));
  INSERT INTO sync_changes (book, kind, record_id, deleted, changed_at)
    SELECT m.book, 'order', m.id, 0, unixepoch() FROM (
      SELECT c.salesagent_id AS book, o.id FROM customers AS c JOIN orders AS o ON o.customer_id = c.id
      WHERE c.id = NEW.customer_id) AS m
    WHERE m.book IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_changes AS f
      WHERE f.book = m.book AND f.kind = 'order' AND f.record_id = m.id);
END;
--> statement-breakpoint
CREATE TRIGGER customer_addresses_sync_update AFTER UPDATE ON customer_addresses
  WHEN OLD.customer_id IS NOT NEW.customer_id OR OLD.addressline1 IS NOT NEW.addressline1 OR
    OLD.addressline2 IS NOT NEW.addressline2 OR OLD.area_id IS NOT NEW.area_id OR
    OLD.postalcode_id IS NOT NEW.postalcode_id BEGIN
  DELETE FROM sync_changes WHERE kind = 'customer' AND (book, record_id) IN (
      SELECT salesagent_id AS book, id FROM customers WHERE id = NEW.customer_id)
    AND NOT (deleted = 0 AND seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor));
  INSERT INTO sync_changes (book, kind, record_id, deleted, changed_at)
    SELECT m.book, 'customer', m.id, 0, unixepoch() FROM (
      SELECT salesagent_id AS book, id FROM customers WHERE id = NEW.customer_id) AS m
    WHERE m.book IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_changes AS f
      WHERE f.book = m.book AND f.kind = 'customer' AND f.record_id = m.id);
  DELETE FROM sync_changes WHERE kind = 'order' AND (book, record_id) IN (
      SELECT c.salesagent_id AS book, o.id FROM customers AS c JOIN orders AS o ON o.customer_id = c.id
      WHERE c.id = NEW.customer_id)
    AND NOT (deleted = 0 AND seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor));
  INSERT INTO sync_changes (book, kind, record_id, deleted, changed_at)
    SELECT m.book, 'order', m.id, 0, unixepoch() FROM (
      SELECT c.salesagent_id AS book, o.id FROM customers AS c JOIN orders AS o ON o.customer_id = c.id
      WHERE c.id = NEW.customer_id) AS m
    WHERE m.book IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_changes AS f
      WHERE f.book = m.book AND f.kind = 'order' AND f.record_id = m.id);
END;
--> statement-breakpoint
CREATE TRIGGER customer_addresses_sync_update_old AFTER UPDATE OF customer_id ON customer_addresses
  WHEN OLD.customer_id IS NOT NEW.customer_id BEGIN
  DELETE FROM sync_changes WHERE kind = 'customer' AND (book, record_id) IN (
      SELECT salesagent_id AS book, id FROM customers WHERE id = OLD.customer_id)
    AND NOT (deleted = 0 AND seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor));
  INSERT INTO sync_changes (book, kind, record_id, deleted, changed_at)
    SELECT m.book, 'customer', m.id, 0, unixepoch() FROM (
      SELECT salesagent_id AS book, id FROM customers WHERE id = OLD.customer_id) AS m
    WHERE m.book IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_changes AS f
      WHERE f.book = m.book AND f.kind = 'customer' AND f.record_id = m.id);
  DELETE FROM sync_changes WHERE kind = 'order' AND (book, record_id) IN (
      SELECT c.salesagent_id AS book, o.id FROM customers AS c JOIN orders AS o ON o.customer_id = c.id
      WHERE c.id = OLD.customer_id)
    AND NOT (deleted = 0 AND seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor));
  INSERT INTO sync_changes (book, kind, record_id, deleted, changed_at)
    SELECT m.book, 'order', m.id, 0, unixepoch() FROM (
      SELECT c.salesagent_id AS book, o.id FROM customers AS c JOIN orders AS o ON o.customer_id = c.id
      WHERE c.id = OLD.customer_id) AS m
    WHERE m.book IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_changes AS f
      WHERE f.book = m.book AND f.kind = 'order' AND f.record_id = m.id);
END;
--> statement-breakpoint
CREATE TRIGGER customer_addresses_sync_delete AFTER DELETE ON customer_addresses BEGIN
  DELETE FROM sync_changes WHERE kind = 'customer' AND (book, record_id) IN (
      SELECT salesagent_id AS book, id FROM customers WHERE id = OLD.customer_id)
    AND NOT (deleted = 0 AND seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor));
  INSERT INTO sync_changes (book, kind, record_id, deleted, changed_at)
    SELECT m.book, 'customer', m.id, 0, unixepoch() FROM (
      SELECT salesagent_id AS book, id FROM customers WHERE id = OLD.customer_id) AS m
    WHERE m.book IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_changes AS f
      WHERE f.book = m.book AND f.kind = 'customer' AND f.record_id = m.id);
  DELETE FROM sync_changes WHERE kind = 'order' AND (book, record_id) IN (
      SELECT c.salesagent_id AS book, o.id FROM customers AS c JOIN orders AS o ON o.customer_id = c.id
      WHERE c.id = OLD.customer_id)
    AND NOT (deleted = 0 AND seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor));
  INSERT INTO sync_changes (book, kind, record_id, deleted, changed_at)
    SELECT m.book, 'order', m.id, 0, unixepoch() FROM (
      SELECT c.salesagent_id AS book, o.id FROM customers AS c JOIN orders AS o ON o.customer_id = c.id
      WHERE c.id = OLD.customer_id) AS m
    WHERE m.book IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_changes AS f
      WHERE f.book = m.book AND f.kind = 'order' AND f.record_id = m.id);
END;
--> statement-breakpoint
CREATE TRIGGER orders_sync_insert AFTER INSERT ON orders BEGIN
  DELETE FROM sync_changes WHERE kind = 'order' AND (book, record_id) IN (
      SELECT salesagent_id AS book, NEW.id AS id FROM customers WHERE id = NEW.customer_id)
    AND NOT (deleted = 0 AND seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor));
  INSERT INTO sync_changes (book, kind, record_id, deleted, changed_at)
    SELECT m.book, 'order', m.id, 0, unixepoch() FROM (
      SELECT salesagent_id AS book, NEW.id AS id FROM customers WHERE id = NEW.customer_id) AS m
    WHERE m.book IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_changes AS f
      WHERE f.book = m.book AND f.kind = 'order' AND f.record_id = m.id);
END;
--> statement-breakpoint
CREATE TRIGGER orders_sync_edit AFTER UPDATE ON orders
  WHEN OLD.customer_id IS NEW.customer_id AND (
    OLD.order_no IS NOT NEW.order_no OR OLD.date IS NOT NEW.date OR
    OLD.item_total_amount IS NOT NEW.item_total_amount OR
    OLD.discount_amount IS NOT NEW.discount_amount OR
    OLD.return_total_amount IS NOT NEW.return_total_amount OR
    OLD.billable_amount IS NOT NEW.billable_amount OR OLD.salesagent_id IS NOT NEW.salesagent_id OR
    OLD.deliveryagent_id IS NOT NEW.deliveryagent_id) BEGIN
  DELETE FROM sync_changes WHERE kind = 'order' AND (book, record_id) IN (
      SELECT salesagent_id AS book, NEW.id AS id FROM customers WHERE id = NEW.customer_id)
    AND NOT (deleted = 0 AND seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor));
  INSERT INTO sync_changes (book, kind, record_id, deleted, changed_at)
    SELECT m.book, 'order', m.id, 0, unixepoch() FROM (
      SELECT salesagent_id AS book, NEW.id AS id FROM customers WHERE id = NEW.customer_id) AS m
    WHERE m.book IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_changes AS f
      WHERE f.book = m.book AND f.kind = 'order' AND f.record_id = m.id);
END;
--> statement-breakpoint
CREATE TRIGGER orders_sync_move AFTER UPDATE OF customer_id ON orders
  WHEN OLD.customer_id IS NOT NEW.customer_id BEGIN
  DELETE FROM sync_changes WHERE kind = 'order' AND (book, record_id) IN (
      SELECT salesagent_id AS book, OLD.id AS id FROM customers WHERE id = OLD.customer_id)
    AND NOT (deleted = 1 AND seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor));
  INSERT INTO sync_changes (book, kind, record_id, deleted, changed_at)
    SELECT m.book, 'order', m.id, 1, unixepoch() FROM (
      SELECT salesagent_id AS book, OLD.id AS id FROM customers WHERE id = OLD.customer_id) AS m
    WHERE m.book IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_changes AS f
      WHERE f.book = m.book AND f.kind = 'order' AND f.record_id = m.id);
  DELETE FROM sync_changes WHERE kind = 'order' AND (book, record_id) IN (
      SELECT salesagent_id AS book, NEW.id AS id FROM customers WHERE id = NEW.customer_id)
    AND NOT (deleted = 0 AND seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor));
  INSERT INTO sync_changes (book, kind, record_id, deleted, changed_at)
    SELECT m.book, 'order', m.id, 0, unixepoch() FROM (
      SELECT salesagent_id AS book, NEW.id AS id FROM customers WHERE id = NEW.customer_id) AS m
    WHERE m.book IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_changes AS f
      WHERE f.book = m.book AND f.kind = 'order' AND f.record_id = m.id);
END;
--> statement-breakpoint
CREATE TRIGGER orders_sync_delete AFTER DELETE ON orders BEGIN
  DELETE FROM sync_changes WHERE kind = 'order' AND (book, record_id) IN (
      SELECT salesagent_id AS book, OLD.id AS id FROM customers WHERE id = OLD.customer_id)
    AND NOT (deleted = 1 AND seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor));
  INSERT INTO sync_changes (book, kind, record_id, deleted, changed_at)
    SELECT m.book, 'order', m.id, 1, unixepoch() FROM (
      SELECT salesagent_id AS book, OLD.id AS id FROM customers WHERE id = OLD.customer_id) AS m
    WHERE m.book IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_changes AS f
      WHERE f.book = m.book AND f.kind = 'order' AND f.record_id = m.id);
END;
--> statement-breakpoint
CREATE TRIGGER order_items_sync_insert AFTER INSERT ON order_items BEGIN
  DELETE FROM sync_changes WHERE kind = 'order' AND (book, record_id) IN (
      SELECT c.salesagent_id AS book, o.id FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
      WHERE o.id = NEW.order_id)
    AND NOT (deleted = 0 AND seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor));
  INSERT INTO sync_changes (book, kind, record_id, deleted, changed_at)
    SELECT m.book, 'order', m.id, 0, unixepoch() FROM (
      SELECT c.salesagent_id AS book, o.id FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
      WHERE o.id = NEW.order_id) AS m
    WHERE m.book IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_changes AS f
      WHERE f.book = m.book AND f.kind = 'order' AND f.record_id = m.id);
END;
--> statement-breakpoint
CREATE TRIGGER order_items_sync_update AFTER UPDATE ON order_items
  WHEN OLD.order_id IS NOT NEW.order_id OR OLD.line_no IS NOT NEW.line_no OR
    OLD.product_id IS NOT NEW.product_id OR OLD.quantity IS NOT NEW.quantity OR
    OLD.price IS NOT NEW.price BEGIN
  DELETE FROM sync_changes WHERE kind = 'order' AND (book, record_id) IN (
      SELECT c.salesagent_id AS book, o.id FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
      WHERE o.id = NEW.order_id)
    AND NOT (deleted = 0 AND seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor));
  INSERT INTO sync_changes (book, kind, record_id, deleted, changed_at)
    SELECT m.book, 'order', m.id, 0, unixepoch() FROM (
      SELECT c.salesagent_id AS book, o.id FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
      WHERE o.id = NEW.order_id) AS m
    WHERE m.book IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_changes AS f
      WHERE f.book = m.book AND f.kind = 'order' AND f.record_id = m.id);
END;
--> statement-breakpoint
CREATE TRIGGER order_items_sync_update_old AFTER UPDATE OF order_id ON order_items
  WHEN OLD.order_id IS NOT NEW.order_id BEGIN
  DELETE FROM sync_changes WHERE kind = 'order' AND (book, record_id) IN (
      SELECT c.salesagent_id AS book, o.id FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
      WHERE o.id = OLD.order_id)
    AND NOT (deleted = 0 AND seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor));
  INSERT INTO sync_changes (book, kind, record_id, deleted, changed_at)
    SELECT m.book, 'order', m.id, 0, unixepoch() FROM (
      SELECT c.salesagent_id AS book, o.id FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
      WHERE o.id = OLD.order_id) AS m
    WHERE m.book IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_changes AS f
      WHERE f.book = m.book AND f.kind = 'order' AND f.record_id = m.id);
END;
--> statement-breakpoint
CREATE TRIGGER order_items_sync_delete AFTER DELETE ON order_items BEGIN
  DELETE FROM sync_changes WHERE kind = 'order' AND (book, record_id) IN (
      SELECT c.salesagent_id AS book, o.id FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
      WHERE o.id = OLD.order_id)
    AND NOT (deleted = 0 AND seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor));
  INSERT INTO sync_changes (book, kind, record_id, deleted, changed_at)
    SELECT m.book, 'order', m.id, 0, unixepoch() FROM (
      SELECT c.salesagent_id AS book, o.id FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
      WHERE o.id = OLD.order_id) AS m
    WHERE m.book IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_changes AS f
      WHERE f.book = m.book AND f.kind = 'order' AND f.record_id = m.id);
END;
--> statement-breakpoint
CREATE TRIGGER invoices_sync_insert AFTER INSERT ON invoices BEGIN
  DELETE FROM sync_changes WHERE kind = 'order' AND (book, record_id) IN (
      SELECT c.salesagent_id AS book, o.id FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
      WHERE o.id = NEW.order_id)
    AND NOT (deleted = 0 AND seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor));
  INSERT INTO sync_changes (book, kind, record_id, deleted, changed_at)
    SELECT m.book, 'order', m.id, 0, unixepoch() FROM (
      SELECT c.salesagent_id AS book, o.id FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
      WHERE o.id = NEW.order_id) AS m
    WHERE m.book IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_changes AS f
      WHERE f.book = m.book AND f.kind = 'order' AND f.record_id = m.id);
END;
--> statement-breakpoint
CREATE TRIGGER invoices_sync_update AFTER UPDATE ON invoices
  WHEN OLD.order_id IS NOT NEW.order_id OR OLD.id IS NOT NEW.id OR
    OLD.invoice_number IS NOT NEW.invoice_number OR OLD.date IS NOT NEW.date OR
    OLD.due_date IS NOT NEW.due_date OR OLD.total_amount IS NOT NEW.total_amount OR
    OLD.discount_amount IS NOT NEW.discount_amount OR OLD.returned_amount IS NOT NEW.returned_amount OR
    OLD.invoice_amount IS NOT NEW.invoice_amount OR OLD.cgst IS NOT NEW.cgst OR
    OLD.sgst IS NOT NEW.sgst OR OLD.igst IS NOT NEW.igst BEGIN
  DELETE FROM sync_changes WHERE kind = 'order' AND (book, record_id) IN (
      SELECT c.salesagent_id AS book, o.id FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
      WHERE o.id = NEW.order_id)
    AND NOT (deleted = 0 AND seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor));
  INSERT INTO sync_changes (book, kind, record_id, deleted, changed_at)
    SELECT m.book, 'order', m.id, 0, unixepoch() FROM (
      SELECT c.salesagent_id AS book, o.id FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
      WHERE o.id = NEW.order_id) AS m
    WHERE m.book IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_changes AS f
      WHERE f.book = m.book AND f.kind = 'order' AND f.record_id = m.id);
END;
--> statement-breakpoint
CREATE TRIGGER invoices_sync_update_old AFTER UPDATE OF order_id ON invoices
  WHEN OLD.order_id IS NOT NEW.order_id BEGIN
  DELETE FROM sync_changes WHERE kind = 'order' AND (book, record_id) IN (
      SELECT c.salesagent_id AS book, o.id FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
      WHERE o.id = OLD.order_id)
    AND NOT (deleted = 0 AND seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor));
  INSERT INTO sync_changes (book, kind, record_id, deleted, changed_at)
    SELECT m.book, 'order', m.id, 0, unixepoch() FROM (
      SELECT c.salesagent_id AS book, o.id FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
      WHERE o.id = OLD.order_id) AS m
    WHERE m.book IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_changes AS f
      WHERE f.book = m.book AND f.kind = 'order' AND f.record_id = m.id);
END;
--> statement-breakpoint
CREATE TRIGGER invoices_sync_delete AFTER DELETE ON invoices BEGIN
  DELETE FROM sync_changes WHERE kind = 'order' AND (book, record_id) IN (
      SELECT c.salesagent_id AS book, o.id FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
      WHERE o.id = OLD.order_id)
    AND NOT (deleted = 0 AND seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor));
  INSERT INTO sync_changes (book, kind, record_id, deleted, changed_at)
    SELECT m.book, 'order', m.id, 0, unixepoch() FROM (
      SELECT c.salesagent_id AS book, o.id FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
      WHERE o.id = OLD.order_id) AS m
    WHERE m.book IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_changes AS f
      WHERE f.book = m.book AND f.kind = 'order' AND f.record_id = m.id);
END;
--> statement-breakpoint
CREATE TRIGGER order_statuses_sync_insert AFTER INSERT ON order_statuses
  WHEN NOT EXISTS (SELECT 1 FROM order_statuses AS s WHERE s.order_id = NEW.order_id
    AND (s.at > NEW.at OR (s.at = NEW.at AND s.seq > NEW.seq))) BEGIN
  DELETE FROM sync_changes WHERE kind = 'order' AND (book, record_id) IN (
      SELECT c.salesagent_id AS book, o.id FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
      WHERE o.id = NEW.order_id)
    AND NOT (deleted = 0 AND seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor));
  INSERT INTO sync_changes (book, kind, record_id, deleted, changed_at)
    SELECT m.book, 'order', m.id, 0, unixepoch() FROM (
      SELECT c.salesagent_id AS book, o.id FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
      WHERE o.id = NEW.order_id) AS m
    WHERE m.book IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_changes AS f
      WHERE f.book = m.book AND f.kind = 'order' AND f.record_id = m.id);
END;
--> statement-breakpoint
CREATE TRIGGER order_statuses_sync_update AFTER UPDATE ON order_statuses
  WHEN (OLD.order_id IS NOT NEW.order_id OR OLD.seq IS NOT NEW.seq OR OLD.name IS NOT NEW.name OR
    OLD.at IS NOT NEW.at)
  AND NOT EXISTS (SELECT 1 FROM order_statuses AS s WHERE s.order_id = NEW.order_id
    AND (s.at > NEW.at OR (s.at = NEW.at AND s.seq > NEW.seq))) BEGIN
  DELETE FROM sync_changes WHERE kind = 'order' AND (book, record_id) IN (
      SELECT c.salesagent_id AS book, o.id FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
      WHERE o.id = NEW.order_id)
    AND NOT (deleted = 0 AND seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor));
  INSERT INTO sync_changes (book, kind, record_id, deleted, changed_at)
    SELECT m.book, 'order', m.id, 0, unixepoch() FROM (
      SELECT c.salesagent_id AS book, o.id FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
      WHERE o.id = NEW.order_id) AS m
    WHERE m.book IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_changes AS f
      WHERE f.book = m.book AND f.kind = 'order' AND f.record_id = m.id);
END;
--> statement-breakpoint
CREATE TRIGGER order_statuses_sync_update_old AFTER UPDATE ON order_statuses
  WHEN (OLD.order_id IS NOT NEW.order_id OR OLD.seq IS NOT NEW.seq OR OLD.name IS NOT NEW.name OR
    OLD.at IS NOT NEW.at)
  AND NOT EXISTS (SELECT 1 FROM order_statuses AS s WHERE s.order_id = OLD.order_id
    AND (s.at > OLD.at OR (s.at = OLD.at AND s.seq > OLD.seq))
    AND NOT (s.order_id = NEW.order_id AND s.seq = NEW.seq)) BEGIN
  DELETE FROM sync_changes WHERE kind = 'order' AND (book, record_id) IN (
      SELECT c.salesagent_id AS book, o.id FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
      WHERE o.id = OLD.order_id)
    AND NOT (deleted = 0 AND seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor));
  INSERT INTO sync_changes (book, kind, record_id, deleted, changed_at)
    SELECT m.book, 'order', m.id, 0, unixepoch() FROM (
      SELECT c.salesagent_id AS book, o.id FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
      WHERE o.id = OLD.order_id) AS m
    WHERE m.book IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_changes AS f
      WHERE f.book = m.book AND f.kind = 'order' AND f.record_id = m.id);
END;
--> statement-breakpoint
CREATE TRIGGER order_statuses_sync_delete AFTER DELETE ON order_statuses
  WHEN NOT EXISTS (SELECT 1 FROM order_statuses AS s WHERE s.order_id = OLD.order_id
    AND (s.at > OLD.at OR (s.at = OLD.at AND s.seq > OLD.seq))) BEGIN
  DELETE FROM sync_changes WHERE kind = 'order' AND (book, record_id) IN (
      SELECT c.salesagent_id AS book, o.id FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
      WHERE o.id = OLD.order_id)
    AND NOT (deleted = 0 AND seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor));
  INSERT INTO sync_changes (book, kind, record_id, deleted, changed_at)
    SELECT m.book, 'order', m.id, 0, unixepoch() FROM (
      SELECT c.salesagent_id AS book, o.id FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
      WHERE o.id = OLD.order_id) AS m
    WHERE m.book IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_changes AS f
      WHERE f.book = m.book AND f.kind = 'order' AND f.record_id = m.id);
END;
