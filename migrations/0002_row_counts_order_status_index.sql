CREATE TABLE `row_counts` (
	`name` text PRIMARY KEY NOT NULL,
	`n` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `order_statuses_order_at_idx` ON `order_statuses` (`order_id`,`at`,`seq`);