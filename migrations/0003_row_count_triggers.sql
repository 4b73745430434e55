-- Custom SQL migration, written by hand: made with
--   npx drizzle-kit generate --custom --config drizzle/drizzle.config.ts --name row_count_triggers
-- because drizzle-kit does not generate triggers. The table row_counts is in drizzle/schema.ts
-- (migration 0002); this file keeps it exact.
--
-- Why: a listing's `total` was a count(*), which reads every row of the table, and D1 bills and
-- waits for every row a statement reads. The triggers count each insert and delete of customers,
-- postal_codes and sales_agents in the statement that makes it, inside its transaction (a create's
-- batch, an import's final batch), so the count is exact on the primary, also under racing
-- creates, and a total costs one row read. An upsert that updates an existing row fires no insert
-- trigger, so re-importing a file leaves the counts as they are. A migration that rebuilds one of
-- these tables (drizzle-kit's copy, drop, rename) drops its triggers: it must create them again.
INSERT INTO `row_counts` (`name`, `n`) VALUES
  ('customers', (SELECT count(*) FROM `customers`)),
  ('postal_codes', (SELECT count(*) FROM `postal_codes`)),
  ('sales_agents', (SELECT count(*) FROM `sales_agents`));
--> statement-breakpoint
CREATE TRIGGER `customers_count_insert` AFTER INSERT ON `customers` BEGIN
  UPDATE `row_counts` SET `n` = `n` + 1 WHERE `name` = 'customers';
END;
--> statement-breakpoint
CREATE TRIGGER `customers_count_delete` AFTER DELETE ON `customers` BEGIN
  UPDATE `row_counts` SET `n` = `n` - 1 WHERE `name` = 'customers';
END;
--> statement-breakpoint
CREATE TRIGGER `postal_codes_count_insert` AFTER INSERT ON `postal_codes` BEGIN
  UPDATE `row_counts` SET `n` = `n` + 1 WHERE `name` = 'postal_codes';
END;
--> statement-breakpoint
CREATE TRIGGER `postal_codes_count_delete` AFTER DELETE ON `postal_codes` BEGIN
  UPDATE `row_counts` SET `n` = `n` - 1 WHERE `name` = 'postal_codes';
END;
--> statement-breakpoint
CREATE TRIGGER `sales_agents_count_insert` AFTER INSERT ON `sales_agents` BEGIN
  UPDATE `row_counts` SET `n` = `n` + 1 WHERE `name` = 'sales_agents';
END;
--> statement-breakpoint
CREATE TRIGGER `sales_agents_count_delete` AFTER DELETE ON `sales_agents` BEGIN
  UPDATE `row_counts` SET `n` = `n` - 1 WHERE `name` = 'sales_agents';
END;
