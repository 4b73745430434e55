CREATE TABLE `sync_books` (
	`book` integer PRIMARY KEY NOT NULL,
	`purge_mark` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sync_changes` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`book` integer NOT NULL,
	`kind` text NOT NULL,
	`record_id` integer NOT NULL,
	`deleted` integer DEFAULT 0 NOT NULL,
	`changed_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sync_changes_record_uq` ON `sync_changes` (`book`,`kind`,`record_id`);--> statement-breakpoint
CREATE INDEX `sync_changes_book_seq_idx` ON `sync_changes` (`book`,`seq`);