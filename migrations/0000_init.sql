CREATE TABLE `areas` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`area_code` text DEFAULT '' NOT NULL,
	`city_id` integer NOT NULL,
	FOREIGN KEY (`city_id`) REFERENCES `cities`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `areas_city_idx` ON `areas` (`city_id`);--> statement-breakpoint
CREATE TABLE `cities` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`code` text NOT NULL,
	`state_id` integer NOT NULL,
	FOREIGN KEY (`state_id`) REFERENCES `states`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `cities_state_idx` ON `cities` (`state_id`);--> statement-breakpoint
CREATE TABLE `customer_addresses` (
	`customer_id` integer PRIMARY KEY NOT NULL,
	`addressline1` text NOT NULL,
	`addressline2` text DEFAULT '' NOT NULL,
	`area_id` integer NOT NULL,
	`postalcode_id` integer NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`area_id`) REFERENCES `areas`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`postalcode_id`) REFERENCES `postal_codes`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `customers` (
	`id` integer PRIMARY KEY NOT NULL,
	`contact_person_name` text NOT NULL,
	`company_name` text NOT NULL,
	`display_name` text NOT NULL,
	`email` text,
	`contactperson_number` text NOT NULL,
	`phone_key` text,
	`company_phone` text,
	`gst_treatment` text NOT NULL,
	`gstin` text,
	`customer_code` text,
	`status` text NOT NULL,
	`approval` text NOT NULL,
	`salesagent_id` integer,
	FOREIGN KEY (`salesagent_id`) REFERENCES `sales_agents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `customers_phone_key_uq` ON `customers` (`phone_key`);--> statement-breakpoint
CREATE TABLE `delivery_agents` (
	`id` integer PRIMARY KEY NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`phone_number` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`key` text PRIMARY KEY NOT NULL,
	`request_hash` text NOT NULL,
	`status` integer NOT NULL,
	`body` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `invoices` (
	`id` integer PRIMARY KEY NOT NULL,
	`order_id` integer NOT NULL,
	`invoice_number` text NOT NULL,
	`date` text NOT NULL,
	`due_date` text NOT NULL,
	`total_amount` real NOT NULL,
	`discount_amount` real NOT NULL,
	`returned_amount` real NOT NULL,
	`invoice_amount` real NOT NULL,
	`cgst` real NOT NULL,
	`sgst` real NOT NULL,
	`igst` real NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_invoice_number_uq` ON `invoices` (`invoice_number`);--> statement-breakpoint
CREATE INDEX `invoices_order_date_idx` ON `invoices` (`order_id`,`date`,`id`);--> statement-breakpoint
CREATE TABLE `order_items` (
	`order_id` integer NOT NULL,
	`line_no` integer NOT NULL,
	`product_id` integer NOT NULL,
	`quantity` integer NOT NULL,
	`price` real NOT NULL,
	PRIMARY KEY(`order_id`, `line_no`),
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `order_statuses` (
	`order_id` integer NOT NULL,
	`seq` integer NOT NULL,
	`name` text NOT NULL,
	`at` text NOT NULL,
	PRIMARY KEY(`order_id`, `seq`),
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `orders` (
	`id` integer PRIMARY KEY NOT NULL,
	`order_no` text NOT NULL,
	`customer_id` integer NOT NULL,
	`salesagent_id` integer,
	`deliveryagent_id` integer,
	`date` text NOT NULL,
	`item_total_amount` real NOT NULL,
	`discount_amount` real NOT NULL,
	`return_total_amount` real NOT NULL,
	`billable_amount` real NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`salesagent_id`) REFERENCES `sales_agents`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`deliveryagent_id`) REFERENCES `delivery_agents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `orders_order_no_uq` ON `orders` (`order_no`);--> statement-breakpoint
CREATE INDEX `orders_customer_date_idx` ON `orders` (`customer_id`,`date`,`id`);--> statement-breakpoint
CREATE TABLE `postal_codes` (
	`id` integer PRIMARY KEY NOT NULL,
	`code` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `postal_codes_code_idx` ON `postal_codes` (`code`);--> statement-breakpoint
CREATE TABLE `products` (
	`id` integer PRIMARY KEY NOT NULL,
	`sku` text NOT NULL,
	`name` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sales_agent_postal_codes` (
	`sales_agent_id` integer NOT NULL,
	`postal_code_id` integer NOT NULL,
	PRIMARY KEY(`sales_agent_id`, `postal_code_id`),
	FOREIGN KEY (`sales_agent_id`) REFERENCES `sales_agents`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`postal_code_id`) REFERENCES `postal_codes`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `sales_agent_postal_codes_postal_code_idx` ON `sales_agent_postal_codes` (`postal_code_id`,`sales_agent_id`);--> statement-breakpoint
CREATE TABLE `sales_agents` (
	`id` integer PRIMARY KEY NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`mobile_number` text NOT NULL,
	`email` text,
	`avatar` text
);
--> statement-breakpoint
CREATE TABLE `states` (
	`id` integer PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL
);
