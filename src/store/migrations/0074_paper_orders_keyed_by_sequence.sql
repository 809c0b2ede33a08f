-- An order id is P<sequence>, so the two unique indexes on id and on sequence were one key kept
-- twice, and each order's two row versions (placed, filled) wrote an entry in both. The sequence
-- is the key now; fills keep the order id they name (written with their order, in its
-- transaction), without a foreign key whose check locked the order row again.
ALTER TABLE paper_fills DROP CONSTRAINT paper_fills_order_id_fkey;
ALTER TABLE paper_orders DROP CONSTRAINT paper_orders_pkey;
ALTER TABLE paper_orders DROP CONSTRAINT paper_orders_sequence_key;
ALTER TABLE paper_orders ADD PRIMARY KEY (sequence);
