ALTER TABLE `api_keys` ADD `version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `copy_pending` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `api_keys_copy_pending_idx` ON `api_keys` (`id`) WHERE "api_keys"."copy_pending" = 1;