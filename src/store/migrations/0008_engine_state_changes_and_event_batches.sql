-- An automation's state is a snapshot plus the changes since it (src/engine/state-changes.ts):
-- a fill rewrites the small `changes`, and the large snapshot, kept out of line, only now and then.
ALTER TABLE automations ADD COLUMN changes text;

-- The events one automation logged in one batch share a row: they share its time too.
ALTER TABLE automation_events ADD COLUMN messages text[];
UPDATE automation_events SET messages = ARRAY[message];
ALTER TABLE automation_events ALTER COLUMN messages SET NOT NULL;
ALTER TABLE automation_events DROP COLUMN message;
