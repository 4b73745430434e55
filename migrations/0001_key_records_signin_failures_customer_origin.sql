CREATE TABLE `admin_signin_failures` (
	`id` integer PRIMARY KEY NOT NULL,
	`address` text NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `admin_signin_failures_address_at_idx` ON `admin_signin_failures` (`address`,`at`);--> statement-breakpoint
CREATE INDEX `admin_signin_failures_at_idx` ON `admin_signin_failures` (`at`);--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`mode` text NOT NULL,
	`prefix` text NOT NULL,
	`hash` text NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` text,
	`revoked_at` text,
	`rolled_from` text,
	`replaced_by` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash_uq` ON `api_keys` (`hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_rolled_from_uq` ON `api_keys` (`rolled_from`);--> statement-breakpoint
CREATE INDEX `api_keys_created_idx` ON `api_keys` (`created_at`,`id`);--> statement-breakpoint
ALTER TABLE `customers` ADD `origin` text DEFAULT 'import' NOT NULL;