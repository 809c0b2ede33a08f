-- The exchange's id of each journaled order and the currency of its fee, as the exchange
-- answered. For a paper account the journal row is then the paper exchange's only record of an
-- order the engine placed (its fills and balances are written in the same transaction).
ALTER TABLE engine_orders ADD COLUMN exchange_order_id text, ADD COLUMN fee_currency text;
