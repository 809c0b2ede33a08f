-- The journal is written by automation and order key, which its unique index already holds: the
-- index on the journal's own number was a third entry written for every row version (an order
-- placed and then filled: two, about 130 WAL bytes per grid fill). The numbers come from the
-- engine_ids sequence, one per order, and nothing looks a journal row up by it.
ALTER TABLE engine_orders DROP CONSTRAINT engine_orders_pkey;
ALTER TABLE engine_orders ADD CONSTRAINT engine_orders_pkey PRIMARY KEY USING INDEX engine_orders_automation_key;
