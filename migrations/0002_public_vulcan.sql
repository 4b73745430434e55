CREATE TABLE `admin_signin_failures` (
	`id` integer PRIMARY KEY NOT NULL,
	`address` text NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `admin_signin_failures_address_at_idx` ON `admin_signin_failures` (`address`,`at`);--> statement-breakpoint
CREATE INDEX `admin_signin_failures_at_idx` ON `admin_signin_failures` (`at`);