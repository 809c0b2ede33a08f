-- A batch's changes of an automation's state go into the row that logs its events in that batch
-- (`automation_events.changes`, what changed since the state the batch before stored), instead of
-- rewriting `automations.changes` (everything that differs from the snapshot) on every batch: the
-- grid benchmark wrote about 540 WAL bytes per fill for that update and its lock records. The
-- snapshot's row is written only when a snapshot is, and `log_after` names the last event row the
-- snapshot includes: the state is the snapshot, its `changes`, then the changes of the later rows
-- in order. `tick_seq` is the engine's tick-log position as of that batch (as `automations.tick_seq`).
-- A row of changes alone has no messages (NULL: an empty array would cost 16 bytes a row).
ALTER TABLE automation_events ADD COLUMN changes text, ADD COLUMN tick_seq bigint, ALTER COLUMN messages DROP NOT NULL;
ALTER TABLE automations ADD COLUMN log_after bigint NOT NULL DEFAULT 0;
