ALTER TABLE `api_keys` ADD `rotation_state` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `rotation_requested_at` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `rotated_at` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `successor_first_used_at` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `old_key_uses_after_successor` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `successor_secret_sealed` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `awaits_first_use` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `api_keys_rotation_due_idx` ON `api_keys` (`id`) WHERE "api_keys"."rotation_state" = 'due';