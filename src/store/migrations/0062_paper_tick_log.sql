-- Ticks posted to the manual paper feed on any server reach every engine: they are appended here
-- (NOTIFY tradeloop_ticks) and each engine applies them in `seq` order from its own position.
-- `engines.tick_seq` is how far an engine got; `account_leases.tick_seq` how far the account was
-- handled by its holder, so the next holder takes it from that tick on (docs/scaling.md).
CREATE TABLE paper_ticks (
  seq bigserial PRIMARY KEY,
  pair text NOT NULL,
  price numeric NOT NULL,
  bid numeric,
  ask numeric,
  volume numeric,
  at timestamptz NOT NULL,
  posted_at timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE engines ADD COLUMN tick_seq bigint;
ALTER TABLE account_leases ADD COLUMN tick_seq bigint;
