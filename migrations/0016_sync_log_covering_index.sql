DROP INDEX `sync_changes_book_seq_idx`;--> statement-breakpoint
CREATE INDEX `sync_changes_book_seq_idx` ON `sync_changes` (`book`,`seq`,`kind`,`record_id`,`deleted`);