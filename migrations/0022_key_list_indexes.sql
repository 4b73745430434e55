CREATE INDEX `api_keys_agent_created_idx` ON `api_keys` (`agent_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `api_keys_mode_created_idx` ON `api_keys` (`mode`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `api_keys_rotation_created_idx` ON `api_keys` (`rotation_state`,`created_at`,`id`);