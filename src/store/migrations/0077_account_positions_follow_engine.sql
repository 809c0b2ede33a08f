-- An account an engine runs stands where that engine stands in the tick log (engines.tick_seq).
-- Recording the position on each such account after every tick that changed something rewrote
-- every lease row of the engine per tick. Now `follows_engine` marks those accounts, and their own
-- `tick_seq` is set from the engine's when they leave it: taken by another engine, handed back, or
-- their engine forgotten (docs/scaling.md).
ALTER TABLE account_leases ADD COLUMN follows_engine boolean NOT NULL DEFAULT false;

CREATE VIEW account_positions AS
  SELECT l.account_id, l.engine_id, l.expires_at,
    CASE WHEN l.follows_engine THEN coalesce(e.tick_seq, l.tick_seq) ELSE l.tick_seq END AS tick_seq
  FROM account_leases l LEFT JOIN engines e ON l.follows_engine AND e.id = l.engine_id;
