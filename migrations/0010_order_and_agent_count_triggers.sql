-- Custom SQL migration, written by hand: made with
--   npx drizzle-kit generate --custom --config drizzle/drizzle.config.ts --name order_and_agent_count_triggers
-- because drizzle-kit does not generate triggers. The tables customer_order_counts and
-- agent_customer_counts are in drizzle/schema.ts (the migration before this one); this file fills
-- them from the rows that exist and keeps them exact.
--
-- Why: the orders listing's total without dates was a count of the customer's orders, and an
-- agent-bound key's customers total a count of the agent's customers: both grow with the data.
-- Kept counts make each total one row read, and let a page by offset past the total answer
-- without reading the listing (docs/specification.md section 4). The triggers run in the statement
-- that inserts, deletes or moves a row (a create's batch, an import's final batch), so the counts
-- are exact on the primary. A move is an UPDATE that changes the counted column (an import's
-- upsert sets every column, so the WHEN clause skips the rows whose value stays). A migration that
-- rebuilds orders or customers (drizzle-kit's copy, drop, rename) drops these triggers and those
-- of row_count_triggers: it must create them again.
INSERT INTO `customer_order_counts` (`customer_id`, `n`)
  SELECT `customer_id`, count(*) FROM `orders` GROUP BY `customer_id`;
--> statement-breakpoint
INSERT INTO `agent_customer_counts` (`agent_id`, `n`)
  SELECT `salesagent_id`, count(*) FROM `customers` WHERE `salesagent_id` IS NOT NULL GROUP BY `salesagent_id`;
--> statement-breakpoint
CREATE TRIGGER `orders_customer_count_insert` AFTER INSERT ON `orders` BEGIN
  INSERT INTO `customer_order_counts` (`customer_id`, `n`) VALUES (NEW.`customer_id`, 1)
    ON CONFLICT (`customer_id`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `orders_customer_count_delete` AFTER DELETE ON `orders` BEGIN
  UPDATE `customer_order_counts` SET `n` = `n` - 1 WHERE `customer_id` = OLD.`customer_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `orders_customer_count_move` AFTER UPDATE OF `customer_id` ON `orders`
  WHEN OLD.`customer_id` IS NOT NEW.`customer_id` BEGIN
  UPDATE `customer_order_counts` SET `n` = `n` - 1 WHERE `customer_id` = OLD.`customer_id`;
  INSERT INTO `customer_order_counts` (`customer_id`, `n`) VALUES (NEW.`customer_id`, 1)
    ON CONFLICT (`customer_id`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `customers_agent_count_insert` AFTER INSERT ON `customers`
  WHEN NEW.`salesagent_id` IS NOT NULL BEGIN
  INSERT INTO `agent_customer_counts` (`agent_id`, `n`) VALUES (NEW.`salesagent_id`, 1)
    ON CONFLICT (`agent_id`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `customers_agent_count_delete` AFTER DELETE ON `customers`
  WHEN OLD.`salesagent_id` IS NOT NULL BEGIN
  UPDATE `agent_customer_counts` SET `n` = `n` - 1 WHERE `agent_id` = OLD.`salesagent_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `customers_agent_count_move` AFTER UPDATE OF `salesagent_id` ON `customers`
  WHEN OLD.`salesagent_id` IS NOT NEW.`salesagent_id` BEGIN
  UPDATE `agent_customer_counts` SET `n` = `n` - 1 WHERE `agent_id` = OLD.`salesagent_id`;
  INSERT INTO `agent_customer_counts` (`agent_id`, `n`) SELECT NEW.`salesagent_id`, 1 WHERE NEW.`salesagent_id` IS NOT NULL
    ON CONFLICT (`agent_id`) DO UPDATE SET `n` = `n` + 1;
END;
