-- An automation's journal, event and grid profit rows were removed with it through foreign keys.
-- Each batch's inserts into those tables then checked their automation's row and locked it (FOR
-- KEY SHARE), which PostgreSQL writes as a WAL record of its own for every automation the batch
-- touches (the grid benchmark: about 40 WAL bytes per fill, and one index look-up per row
-- inserted). The engine writes these rows only for automations it runs, so a trigger removes
-- them with their automation instead.
-- One line: migrations are split at semicolons that end a line.
CREATE FUNCTION remove_automation_history() RETURNS trigger LANGUAGE plpgsql AS
  $$ BEGIN DELETE FROM engine_orders WHERE automation_id = OLD.id; DELETE FROM automation_events WHERE automation_id = OLD.id; DELETE FROM grid_bot_profits WHERE automation_id = OLD.id; RETURN NULL; END $$;

CREATE TRIGGER automation_removed AFTER DELETE ON automations FOR EACH ROW EXECUTE FUNCTION remove_automation_history();

ALTER TABLE engine_orders DROP CONSTRAINT engine_orders_automation_id_fkey;
ALTER TABLE automation_events DROP CONSTRAINT automation_events_automation_id_fkey;
ALTER TABLE grid_bot_profits DROP CONSTRAINT grid_bot_profits_automation_id_fkey;
