-- Custom SQL migration, written by hand: made with
--   npx drizzle-kit generate --custom --config drizzle/drizzle.config.ts --name key_lineage_backfill
-- because drizzle-kit does not write data. Migration 0018 added api_keys.lineage_id; this fills it for the
-- keys made before it: each key's lineage is the root of its chain of rolls and rotations (rolled_from),
-- walked once here while every row of the chain still exists. From now on the key store writes it on
-- every insert (a new key: its own id; a roll's or a rotation's: the old key's lineage), so nothing
-- walks the chain again after retention has deleted its old rows (docs/keys.md).
WITH RECURSIVE chain(id, root) AS (
  SELECT id, id FROM `api_keys`
    WHERE `rolled_from` IS NULL OR `rolled_from` NOT IN (SELECT id FROM `api_keys`)
  UNION ALL
  SELECT k.id, chain.root FROM `api_keys` k JOIN chain ON k.`rolled_from` = chain.id
)
UPDATE `api_keys` SET `lineage_id` = (SELECT root FROM chain WHERE chain.id = `api_keys`.id)
  WHERE `lineage_id` IS NULL;
--> statement-breakpoint
-- The KV copies of the keys of a chain carry no lineage yet, so each would be rate limited alone: marked
-- pending, the 5-minute job rewrites them from these rows (in its bounded runs).
UPDATE `api_keys` SET `version` = `version` + 1, `copy_pending` = 1 WHERE `lineage_id` <> `id`;
