CREATE TABLE `leases` (
	`name` text PRIMARY KEY NOT NULL,
	`holder` text NOT NULL,
	`started_at` text NOT NULL,
	`renewed_at` integer NOT NULL
);
