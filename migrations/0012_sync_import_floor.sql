CREATE TABLE `sync_import_floor` (
	`seq` integer PRIMARY KEY NOT NULL
);
