ALTER TABLE `admin_signin_failures` ADD `in_flight` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `lineage_id` text;--> statement-breakpoint
CREATE INDEX `api_keys_lineage_idx` ON `api_keys` (`lineage_id`);--> statement-breakpoint
CREATE INDEX `api_keys_revoked_idx` ON `api_keys` (`revoked_at`);--> statement-breakpoint
CREATE INDEX `api_keys_expires_idx` ON `api_keys` (`expires_at`);--> statement-breakpoint
CREATE INDEX `enrollment_codes_expires_idx` ON `enrollment_codes` (`expires_at`);