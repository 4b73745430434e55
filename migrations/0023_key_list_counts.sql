-- Custom SQL migration, written by hand: made with
--   npx drizzle-kit generate --custom --config drizzle/drizzle.config.ts --name key_list_counts
-- because drizzle-kit does not generate triggers. The dashboard's key list shows how many keys there are, how
-- many of them are in each rotation state, how many old keys were used after their successor, and which
-- agents have keys (docs/specification.md section 9, "A dashboard for a fleet"): counted over api_keys, that
-- read every key row on every page. These triggers keep the counts in row_counts in the statement that
-- changes a key, inside its batch; D1 is single-writer, so they are exact. Names: `api_keys`,
-- `api_keys.rotation.<none|due|rotated|rolled>`, `api_keys.late` (old_key_uses_after_successor > 0) and
-- `api_keys.agent.<id>` (a row while the agent has keys). A migration that rebuilds api_keys drops these
-- triggers: it must create them again.
INSERT INTO `row_counts` (`name`, `n`) VALUES
  ('api_keys', (SELECT count(*) FROM `api_keys`)),
  ('api_keys.rotation.none', (SELECT count(*) FROM `api_keys` WHERE `rotation_state` IS NULL)),
  ('api_keys.rotation.due', (SELECT count(*) FROM `api_keys` WHERE `rotation_state` = 'due')),
  ('api_keys.rotation.rotated', (SELECT count(*) FROM `api_keys` WHERE `rotation_state` = 'rotated')),
  ('api_keys.rotation.rolled', (SELECT count(*) FROM `api_keys` WHERE `rotation_state` = 'rolled')),
  ('api_keys.late', (SELECT count(*) FROM `api_keys` WHERE `old_key_uses_after_successor` > 0));
--> statement-breakpoint
INSERT INTO `row_counts` (`name`, `n`)
  SELECT 'api_keys.agent.' || `agent_id`, count(*) FROM `api_keys` WHERE `agent_id` IS NOT NULL GROUP BY `agent_id`;
--> statement-breakpoint
CREATE TRIGGER `api_keys_count_insert` AFTER INSERT ON `api_keys` BEGIN
  INSERT OR IGNORE INTO `row_counts` (`name`, `n`)
    SELECT 'api_keys.agent.' || NEW.`agent_id`, 0 WHERE NEW.`agent_id` IS NOT NULL;
  UPDATE `row_counts` SET `n` = `n` + 1 WHERE `name` IN (
    'api_keys',
    'api_keys.rotation.' || coalesce(NEW.`rotation_state`, 'none'),
    CASE WHEN NEW.`old_key_uses_after_successor` > 0 THEN 'api_keys.late' END,
    'api_keys.agent.' || NEW.`agent_id`
  );
END;
--> statement-breakpoint
CREATE TRIGGER `api_keys_count_delete` AFTER DELETE ON `api_keys` BEGIN
  UPDATE `row_counts` SET `n` = `n` - 1 WHERE `name` IN (
    'api_keys',
    'api_keys.rotation.' || coalesce(OLD.`rotation_state`, 'none'),
    CASE WHEN OLD.`old_key_uses_after_successor` > 0 THEN 'api_keys.late' END,
    'api_keys.agent.' || OLD.`agent_id`
  );
  DELETE FROM `row_counts` WHERE `name` = 'api_keys.agent.' || OLD.`agent_id` AND `n` <= 0;
END;
--> statement-breakpoint
CREATE TRIGGER `api_keys_count_update` AFTER UPDATE OF `rotation_state`, `old_key_uses_after_successor`, `agent_id`
  ON `api_keys` BEGIN
  UPDATE `row_counts` SET `n` = `n` - 1 WHERE `name` IN (
    'api_keys.rotation.' || coalesce(OLD.`rotation_state`, 'none'),
    CASE WHEN OLD.`old_key_uses_after_successor` > 0 THEN 'api_keys.late' END,
    'api_keys.agent.' || OLD.`agent_id`
  );
  INSERT OR IGNORE INTO `row_counts` (`name`, `n`)
    SELECT 'api_keys.agent.' || NEW.`agent_id`, 0 WHERE NEW.`agent_id` IS NOT NULL;
  UPDATE `row_counts` SET `n` = `n` + 1 WHERE `name` IN (
    'api_keys.rotation.' || coalesce(NEW.`rotation_state`, 'none'),
    CASE WHEN NEW.`old_key_uses_after_successor` > 0 THEN 'api_keys.late' END,
    'api_keys.agent.' || NEW.`agent_id`
  );
  DELETE FROM `row_counts` WHERE `name` = 'api_keys.agent.' || OLD.`agent_id` AND `n` <= 0;
END;
