-- An account's lease is live while its engine's lease is (`engines.lease_until`): the heartbeat
-- renewed every lease row of its engine, 1,000 rows every 5 s for 1,000 accounts, written even
-- when nothing trades. Now it renews the engine's row alone; a lease row is written only when its
-- account is taken or handed back (docs/scaling.md).
ALTER TABLE engines ADD COLUMN lease_until timestamptz NOT NULL DEFAULT now();
UPDATE engines e SET lease_until = coalesce((SELECT max(l.expires_at) FROM account_leases l WHERE l.engine_id = e.id), now());

DROP VIEW account_positions;
ALTER TABLE account_leases DROP COLUMN expires_at;

CREATE VIEW account_positions AS
  SELECT l.account_id, l.engine_id, coalesce(e.lease_until > now(), false) AS live,
    CASE WHEN l.follows_engine THEN coalesce(e.tick_seq, l.tick_seq) ELSE l.tick_seq END AS tick_seq
  FROM account_leases l LEFT JOIN engines e ON e.id = l.engine_id;
