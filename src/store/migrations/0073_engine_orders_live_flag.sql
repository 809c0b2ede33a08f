-- The live-order index's condition was on status, so the journal's pending -> open update changed
-- an indexed column and wrote a new entry in every index. On a flag that stays true from pending
-- to open, that update stays on its page with no index entry (a heap-only update).
ALTER TABLE engine_orders ADD COLUMN live boolean GENERATED ALWAYS AS (status IN ('pending', 'open')) STORED;
DROP INDEX engine_orders_live;
CREATE INDEX engine_orders_live ON engine_orders (automation_id) WHERE live;
