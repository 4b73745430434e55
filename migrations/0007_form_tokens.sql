CREATE TABLE `form_tokens` (
	`token_hash` text NOT NULL,
	`form` text NOT NULL,
	`session_id` text NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`token_hash`, `form`)
);
--> statement-breakpoint
CREATE INDEX `form_tokens_expires_idx` ON `form_tokens` (`expires_at`);