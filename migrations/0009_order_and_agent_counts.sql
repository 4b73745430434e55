CREATE TABLE `agent_customer_counts` (
	`agent_id` integer PRIMARY KEY NOT NULL,
	`n` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `customer_order_counts` (
	`customer_id` integer PRIMARY KEY NOT NULL,
	`n` integer NOT NULL
);
