-- Custom SQL migration, written by hand: made with
--   npx drizzle-kit generate --custom --config drizzle/drizzle.config.ts --name sync_mark_view
-- It rewrites the sync log's triggers (migrations sync_log_triggers and sync_log_child_triggers,
-- which this replaces whole) so that an entry is written in one place: the view sync_mark, whose
-- INSTEAD OF trigger deletes the record's entry in the book and inserts it anew (a new seq), unless
-- the entry was written by the running import's batch (above sync_import_floor) with the same
-- `deleted`, which it leaves as it is. A NULL book (a customer without an agent) is no entry. The
-- record tables' triggers only say which records a change marks: docs/specification.md section 8,
-- "The change log". Delete and insert rather than INSERT OR REPLACE: SQLite runs the triggers of
-- an upsert's DO UPDATE with ABORT, which overrides a trigger's own REPLACE.
DROP TRIGGER customers_sync_insert;
--> statement-breakpoint
DROP TRIGGER customers_sync_edit;
--> statement-breakpoint
DROP TRIGGER customers_sync_move;
--> statement-breakpoint
DROP TRIGGER customers_sync_delete;
--> statement-breakpoint
DROP TRIGGER customer_addresses_sync_insert;
--> statement-breakpoint
DROP TRIGGER customer_addresses_sync_update;
--> statement-breakpoint
DROP TRIGGER customer_addresses_sync_update_old;
--> statement-breakpoint
DROP TRIGGER customer_addresses_sync_delete;
--> statement-breakpoint
DROP TRIGGER orders_sync_insert;
--> statement-breakpoint
DROP TRIGGER orders_sync_edit;
--> statement-breakpoint
DROP TRIGGER orders_sync_move;
--> statement-breakpoint
DROP TRIGGER orders_sync_delete;
--> statement-breakpoint
DROP TRIGGER order_items_sync_insert;
--> statement-breakpoint
DROP TRIGGER order_items_sync_update;
--> statement-breakpoint
DROP TRIGGER order_items_sync_update_old;
--> statement-breakpoint
DROP TRIGGER order_items_sync_delete;
--> statement-breakpoint
DROP TRIGGER invoices_sync_insert;
--> statement-breakpoint
DROP TRIGGER invoices_sync_update;
--> statement-breakpoint
DROP TRIGGER invoices_sync_update_old;
--> statement-breakpoint
DROP TRIGGER invoices_sync_delete;
--> statement-breakpoint
DROP TRIGGER order_statuses_sync_insert;
--> statement-breakpoint
DROP TRIGGER order_statuses_sync_update;
--> statement-breakpoint
DROP TRIGGER order_statuses_sync_update_old;
--> statement-breakpoint
DROP TRIGGER order_statuses_sync_delete;
--> statement-breakpoint
CREATE VIEW sync_mark AS SELECT book, kind, record_id, deleted FROM sync_changes;
--> statement-breakpoint
CREATE TRIGGER sync_mark_write INSTEAD OF INSERT ON sync_mark WHEN NEW.book IS NOT NULL BEGIN
  DELETE FROM sync_changes WHERE book = NEW.book AND kind = NEW.kind AND record_id = NEW.record_id
    AND NOT (deleted = NEW.deleted AND seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor));
  INSERT INTO sync_changes (book, kind, record_id, deleted, changed_at)
    SELECT NEW.book, NEW.kind, NEW.record_id, NEW.deleted, unixepoch()
    WHERE NOT EXISTS (SELECT 1 FROM sync_changes
      WHERE book = NEW.book AND kind = NEW.kind AND record_id = NEW.record_id);
END;
--> statement-breakpoint
CREATE TRIGGER customers_sync_insert AFTER INSERT ON customers BEGIN
  INSERT INTO sync_mark (book, kind, record_id, deleted) VALUES (NEW.salesagent_id, 'customer', NEW.id, 0);
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
  INSERT INTO sync_mark (book, kind, record_id, deleted) VALUES (NEW.salesagent_id, 'customer', NEW.id, 0);
  INSERT INTO sync_mark (book, kind, record_id, deleted)
    SELECT NEW.salesagent_id, 'order', id, 0 FROM orders WHERE customer_id = NEW.id
      AND (OLD.contact_person_name IS NOT NEW.contact_person_name OR
        OLD.company_name IS NOT NEW.company_name OR OLD.display_name IS NOT NEW.display_name OR
        OLD.email IS NOT NEW.email OR OLD.contactperson_number IS NOT NEW.contactperson_number OR
        OLD.company_phone IS NOT NEW.company_phone OR OLD.gst_treatment IS NOT NEW.gst_treatment OR
        OLD.gstin IS NOT NEW.gstin OR OLD.customer_code IS NOT NEW.customer_code);
END;
--> statement-breakpoint
CREATE TRIGGER customers_sync_move AFTER UPDATE OF salesagent_id ON customers
  WHEN OLD.salesagent_id IS NOT NEW.salesagent_id BEGIN
  INSERT INTO sync_mark (book, kind, record_id, deleted) VALUES (OLD.salesagent_id, 'customer', OLD.id, 1);
  INSERT INTO sync_mark (book, kind, record_id, deleted)
    SELECT OLD.salesagent_id, 'order', id, 1 FROM orders WHERE customer_id = OLD.id;
  INSERT INTO sync_mark (book, kind, record_id, deleted) VALUES (NEW.salesagent_id, 'customer', NEW.id, 0);
  INSERT INTO sync_mark (book, kind, record_id, deleted)
    SELECT NEW.salesagent_id, 'order', id, 0 FROM orders WHERE customer_id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER customers_sync_delete AFTER DELETE ON customers BEGIN
  INSERT INTO sync_mark (book, kind, record_id, deleted) VALUES (OLD.salesagent_id, 'customer', OLD.id, 1);
END;
--> statement-breakpoint
CREATE TRIGGER customer_addresses_sync_insert AFTER INSERT ON customer_addresses BEGIN
  INSERT INTO sync_mark (book, kind, record_id, deleted)
    SELECT salesagent_id, 'customer', id, 0 FROM customers WHERE id = NEW.customer_id;
  INSERT INTO sync_mark (book, kind, record_id, deleted)
    SELECT c.salesagent_id, 'order', o.id, 0 FROM customers AS c JOIN orders AS o ON o.customer_id = c.id
    WHERE c.id = NEW.customer_id;
END;
--> statement-breakpoint
CREATE TRIGGER customer_addresses_sync_update AFTER UPDATE ON customer_addresses
  WHEN OLD.customer_id IS NOT NEW.customer_id OR OLD.addressline1 IS NOT NEW.addressline1 OR
    OLD.addressline2 IS NOT NEW.addressline2 OR OLD.area_id IS NOT NEW.area_id OR
    OLD.postalcode_id IS NOT NEW.postalcode_id BEGIN
  INSERT INTO sync_mark (book, kind, record_id, deleted)
    SELECT salesagent_id, 'customer', id, 0 FROM customers WHERE id = NEW.customer_id;
  INSERT INTO sync_mark (book, kind, record_id, deleted)
    SELECT c.salesagent_id, 'order', o.id, 0 FROM customers AS c JOIN orders AS o ON o.customer_id = c.id
    WHERE c.id = NEW.customer_id;
END;
--> statement-breakpoint
CREATE TRIGGER customer_addresses_sync_update_old AFTER UPDATE OF customer_id ON customer_addresses
  WHEN OLD.customer_id IS NOT NEW.customer_id BEGIN
  INSERT INTO sync_mark (book, kind, record_id, deleted)
    SELECT salesagent_id, 'customer', id, 0 FROM customers WHERE id = OLD.customer_id;
  INSERT INTO sync_mark (book, kind, record_id, deleted)
    SELECT c.salesagent_id, 'order', o.id, 0 FROM customers AS c JOIN orders AS o ON o.customer_id = c.id
    WHERE c.id = OLD.customer_id;
END;
--> statement-breakpoint
CREATE TRIGGER customer_addresses_sync_delete AFTER DELETE ON customer_addresses BEGIN
  INSERT INTO sync_mark (book, kind, record_id, deleted)
    SELECT salesagent_id, 'customer', id, 0 FROM customers WHERE id = OLD.customer_id;
  INSERT INTO sync_mark (book, kind, record_id, deleted)
    SELECT c.salesagent_id, 'order', o.id, 0 FROM customers AS c JOIN orders AS o ON o.customer_id = c.id
    WHERE c.id = OLD.customer_id;
END;
--> statement-breakpoint
CREATE TRIGGER orders_sync_insert AFTER INSERT ON orders BEGIN
  INSERT INTO sync_mark (book, kind, record_id, deleted)
    SELECT salesagent_id, 'order', NEW.id, 0 FROM customers WHERE id = NEW.customer_id;
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
  INSERT INTO sync_mark (book, kind, record_id, deleted)
    SELECT salesagent_id, 'order', NEW.id, 0 FROM customers WHERE id = NEW.customer_id;
END;
--> statement-breakpoint
CREATE TRIGGER orders_sync_move AFTER UPDATE OF customer_id ON orders
  WHEN OLD.customer_id IS NOT NEW.customer_id BEGIN
  INSERT INTO sync_mark (book, kind, record_id, deleted)
    SELECT salesagent_id, 'order', OLD.id, 1 FROM customers WHERE id = OLD.customer_id;
  INSERT INTO sync_mark (book, kind, record_id, deleted)
    SELECT salesagent_id, 'order', NEW.id, 0 FROM customers WHERE id = NEW.customer_id;
END;
--> statement-breakpoint
CREATE TRIGGER orders_sync_delete AFTER DELETE ON orders BEGIN
  INSERT INTO sync_mark (book, kind, record_id, deleted)
    SELECT salesagent_id, 'order', OLD.id, 1 FROM customers WHERE id = OLD.customer_id;
END;
--> statement-breakpoint
CREATE TRIGGER order_items_sync_insert AFTER INSERT ON order_items BEGIN
  INSERT INTO sync_mark (book, kind, record_id, deleted)
    SELECT c.salesagent_id, 'order', o.id, 0 FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
    WHERE o.id = NEW.order_id;
END;
--> statement-breakpoint
CREATE TRIGGER order_items_sync_update AFTER UPDATE ON order_items
  WHEN OLD.order_id IS NOT NEW.order_id OR OLD.line_no IS NOT NEW.line_no OR
    OLD.product_id IS NOT NEW.product_id OR OLD.quantity IS NOT NEW.quantity OR
    OLD.price IS NOT NEW.price BEGIN
  INSERT INTO sync_mark (book, kind, record_id, deleted)
    SELECT c.salesagent_id, 'order', o.id, 0 FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
    WHERE o.id = NEW.order_id;
END;
--> statement-breakpoint
CREATE TRIGGER order_items_sync_update_old AFTER UPDATE OF order_id ON order_items
  WHEN OLD.order_id IS NOT NEW.order_id BEGIN
  INSERT INTO sync_mark (book, kind, record_id, deleted)
    SELECT c.salesagent_id, 'order', o.id, 0 FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
    WHERE o.id = OLD.order_id;
END;
--> statement-breakpoint
CREATE TRIGGER order_items_sync_delete AFTER DELETE ON order_items BEGIN
  INSERT INTO sync_mark (book, kind, record_id, deleted)
    SELECT c.salesagent_id, 'order', o.id, 0 FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
    WHERE o.id = OLD.order_id;
END;
--> statement-breakpoint
CREATE TRIGGER invoices_sync_insert AFTER INSERT ON invoices BEGIN
  INSERT INTO sync_mark (book, kind, record_id, deleted)
    SELECT c.salesagent_id, 'order', o.id, 0 FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
    WHERE o.id = NEW.order_id;
END;
--> statement-breakpoint
CREATE TRIGGER invoices_sync_update AFTER UPDATE ON invoices
  WHEN OLD.order_id IS NOT NEW.order_id OR OLD.id IS NOT NEW.id OR
    OLD.invoice_number IS NOT NEW.invoice_number OR OLD.date IS NOT NEW.date OR
    OLD.due_date IS NOT NEW.due_date OR OLD.total_amount IS NOT NEW.total_amount OR
    OLD.discount_amount IS NOT NEW.discount_amount OR OLD.returned_amount IS NOT NEW.returned_amount OR
    OLD.invoice_amount IS NOT NEW.invoice_amount OR OLD.cgst IS NOT NEW.cgst OR
    OLD.sgst IS NOT NEW.sgst OR OLD.igst IS NOT NEW.igst BEGIN
  INSERT INTO sync_mark (book, kind, record_id, deleted)
    SELECT c.salesagent_id, 'order', o.id, 0 FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
    WHERE o.id = NEW.order_id;
END;
--> statement-breakpoint
CREATE TRIGGER invoices_sync_update_old AFTER UPDATE OF order_id ON invoices
  WHEN OLD.order_id IS NOT NEW.order_id BEGIN
  INSERT INTO sync_mark (book, kind, record_id, deleted)
    SELECT c.salesagent_id, 'order', o.id, 0 FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
    WHERE o.id = OLD.order_id;
END;
--> statement-breakpoint
CREATE TRIGGER invoices_sync_delete AFTER DELETE ON invoices BEGIN
  INSERT INTO sync_mark (book, kind, record_id, deleted)
    SELECT c.salesagent_id, 'order', o.id, 0 FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
    WHERE o.id = OLD.order_id;
END;
--> statement-breakpoint
CREATE TRIGGER order_statuses_sync_insert AFTER INSERT ON order_statuses
  WHEN NOT EXISTS (SELECT 1 FROM order_statuses AS s WHERE s.order_id = NEW.order_id
    AND (s.at > NEW.at OR (s.at = NEW.at AND s.seq > NEW.seq))) BEGIN
  INSERT INTO sync_mark (book, kind, record_id, deleted)
    SELECT c.salesagent_id, 'order', o.id, 0 FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
    WHERE o.id = NEW.order_id;
END;
--> statement-breakpoint
CREATE TRIGGER order_statuses_sync_update AFTER UPDATE ON order_statuses
  WHEN (OLD.order_id IS NOT NEW.order_id OR OLD.seq IS NOT NEW.seq OR OLD.name IS NOT NEW.name OR
    OLD.at IS NOT NEW.at)
  AND NOT EXISTS (SELECT 1 FROM order_statuses AS s WHERE s.order_id = NEW.order_id
    AND (s.at > NEW.at OR (s.at = NEW.at AND s.seq > NEW.seq))) BEGIN
  INSERT INTO sync_mark (book, kind, record_id, deleted)
    SELECT c.salesagent_id, 'order', o.id, 0 FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
    WHERE o.id = NEW.order_id;
END;
--> statement-breakpoint
CREATE TRIGGER order_statuses_sync_update_old AFTER UPDATE ON order_statuses
  WHEN (OLD.order_id IS NOT NEW.order_id OR OLD.seq IS NOT NEW.seq OR OLD.name IS NOT NEW.name OR
    OLD.at IS NOT NEW.at)
  AND NOT EXISTS (SELECT 1 FROM order_statuses AS s WHERE s.order_id = OLD.order_id
    AND (s.at > OLD.at OR (s.at = OLD.at AND s.seq > OLD.seq))
    AND NOT (s.order_id = NEW.order_id AND s.seq = NEW.seq)) BEGIN
  INSERT INTO sync_mark (book, kind, record_id, deleted)
    SELECT c.salesagent_id, 'order', o.id, 0 FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
    WHERE o.id = OLD.order_id;
END;
--> statement-breakpoint
CREATE TRIGGER order_statuses_sync_delete AFTER DELETE ON order_statuses
  WHEN NOT EXISTS (SELECT 1 FROM order_statuses AS s WHERE s.order_id = OLD.order_id
    AND (s.at > OLD.at OR (s.at = OLD.at AND s.seq > OLD.seq))) BEGIN
  INSERT INTO sync_mark (book, kind, record_id, deleted)
    SELECT c.salesagent_id, 'order', o.id, 0 FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
    WHERE o.id = OLD.order_id;
END;

