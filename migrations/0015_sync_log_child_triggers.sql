-- Custom SQL migration, written by hand: made with
--   npx drizzle-kit generate --custom --config drizzle/drizzle.config.ts --name sync_log_child_triggers
-- It replaces the sync log triggers of an order's lines, invoices and new statuses (migration
-- sync_log_triggers) with ones whose WHEN clause first asks whether the order already has an entry
-- written by the running import's batch (above sync_import_floor): an import that adds an order
-- with its lines, statuses and invoices then marks the order once and only looks for the entry
-- for each of its children, instead of running the mark's two statements for each (measured: an
-- import of 40,000 new orders 7.0 s before, 4.4 s after; 2.6 to 4.5 s with no log at all).
DROP TRIGGER order_items_sync_insert;
--> statement-breakpoint
DROP TRIGGER order_items_sync_update;
--> statement-breakpoint
DROP TRIGGER order_items_sync_delete;
--> statement-breakpoint
DROP TRIGGER invoices_sync_insert;
--> statement-breakpoint
DROP TRIGGER invoices_sync_update;
--> statement-breakpoint
DROP TRIGGER invoices_sync_delete;
--> statement-breakpoint
DROP TRIGGER order_statuses_sync_insert;
--> statement-breakpoint
CREATE TRIGGER order_items_sync_insert AFTER INSERT ON order_items
  WHEN NOT EXISTS (SELECT 1 FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
    JOIN sync_changes AS f ON f.book = c.salesagent_id AND f.kind = 'order' AND f.record_id = o.id
    WHERE o.id = NEW.order_id AND f.deleted = 0 AND f.seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor)) BEGIN
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
  WHEN (OLD.order_id IS NOT NEW.order_id OR OLD.line_no IS NOT NEW.line_no OR
    OLD.product_id IS NOT NEW.product_id OR OLD.quantity IS NOT NEW.quantity OR
    OLD.price IS NOT NEW.price)
  AND NOT EXISTS (SELECT 1 FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
    JOIN sync_changes AS f ON f.book = c.salesagent_id AND f.kind = 'order' AND f.record_id = o.id
    WHERE o.id = NEW.order_id AND f.deleted = 0 AND f.seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor)) BEGIN
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
CREATE TRIGGER order_items_sync_delete AFTER DELETE ON order_items
  WHEN NOT EXISTS (SELECT 1 FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
    JOIN sync_changes AS f ON f.book = c.salesagent_id AND f.kind = 'order' AND f.record_id = o.id
    WHERE o.id = OLD.order_id AND f.deleted = 0 AND f.seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor)) BEGIN
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
CREATE TRIGGER invoices_sync_insert AFTER INSERT ON invoices
  WHEN NOT EXISTS (SELECT 1 FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
    JOIN sync_changes AS f ON f.book = c.salesagent_id AND f.kind = 'order' AND f.record_id = o.id
    WHERE o.id = NEW.order_id AND f.deleted = 0 AND f.seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor)) BEGIN
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
  WHEN (OLD.order_id IS NOT NEW.order_id OR OLD.id IS NOT NEW.id OR
    OLD.invoice_number IS NOT NEW.invoice_number OR OLD.date IS NOT NEW.date OR
    OLD.due_date IS NOT NEW.due_date OR OLD.total_amount IS NOT NEW.total_amount OR
    OLD.discount_amount IS NOT NEW.discount_amount OR OLD.returned_amount IS NOT NEW.returned_amount OR
    OLD.invoice_amount IS NOT NEW.invoice_amount OR OLD.cgst IS NOT NEW.cgst OR
    OLD.sgst IS NOT NEW.sgst OR OLD.igst IS NOT NEW.igst)
  AND NOT EXISTS (SELECT 1 FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
    JOIN sync_changes AS f ON f.book = c.salesagent_id AND f.kind = 'order' AND f.record_id = o.id
    WHERE o.id = NEW.order_id AND f.deleted = 0 AND f.seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor)) BEGIN
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
CREATE TRIGGER invoices_sync_delete AFTER DELETE ON invoices
  WHEN NOT EXISTS (SELECT 1 FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
    JOIN sync_changes AS f ON f.book = c.salesagent_id AND f.kind = 'order' AND f.record_id = o.id
    WHERE o.id = OLD.order_id AND f.deleted = 0 AND f.seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor)) BEGIN
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
    AND (s.at > NEW.at OR (s.at = NEW.at AND s.seq > NEW.seq)))
  AND NOT EXISTS (SELECT 1 FROM orders AS o JOIN customers AS c ON c.id = o.customer_id
    JOIN sync_changes AS f ON f.book = c.salesagent_id AND f.kind = 'order' AND f.record_id = o.id
    WHERE o.id = NEW.order_id AND f.deleted = 0 AND f.seq > (SELECT ifnull(max(seq), 9223372036854775807) FROM sync_import_floor)) BEGIN
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
