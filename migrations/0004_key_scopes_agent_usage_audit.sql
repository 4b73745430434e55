CREATE TABLE `key_audit` (
	`id` integer PRIMARY KEY NOT NULL,
	`at` text NOT NULL,
	`action` text NOT NULL,
	`key_id` text NOT NULL,
	`new_key_id` text,
	`key_name` text NOT NULL,
	`mode` text NOT NULL,
	`actor` text NOT NULL,
	`session_id` text
);
--> statement-breakpoint
CREATE INDEX `key_audit_at_idx` ON `key_audit` (`at`);--> statement-breakpoint
CREATE TABLE `key_usage` (
	`key_id` text NOT NULL,
	`hour` integer NOT NULL,
	`requests` integer NOT NULL,
	PRIMARY KEY(`key_id`, `hour`)
);
--> statement-breakpoint
CREATE INDEX `key_usage_hour_idx` ON `key_usage` (`hour`);--> statement-breakpoint
ALTER TABLE `api_keys` ADD `scopes` text DEFAULT 'read,write' NOT NULL;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `agent_id` integer;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `last_used_at` text;