-- A running signal is claimed by one process until `claimed_until` (the engine's clock): a claim
-- that a crash left behind runs out and the signal runs again, to a bot that remembers whether
-- its action already took effect. `claimed_by` lets only the process holding the claim store the
-- outcome.
ALTER TABLE trade_signals ADD COLUMN claimed_until timestamptz;
ALTER TABLE trade_signals ADD COLUMN claimed_by text;
