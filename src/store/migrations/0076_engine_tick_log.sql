-- Ticks whose only effect was to move automations' trailing prices are logged once per batch
-- instead of storing each automation they moved; a restart steps those automations on the logged
-- ticks again from their stored state (docs/architecture.md, "Changes stored later").
ALTER TABLE automations ADD COLUMN tick_seq bigint NOT NULL DEFAULT 0;

CREATE TABLE engine_ticks (
  seq bigint PRIMARY KEY,
  at timestamptz NOT NULL,
  ticks text NOT NULL,
  ids text NOT NULL
);
