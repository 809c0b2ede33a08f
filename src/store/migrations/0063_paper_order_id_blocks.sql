-- Paper venues of several engines on one database take order ids in blocks from here, so that no
-- two of them give the same id (an order id is the primary key of paper_orders).
CREATE TABLE paper_order_ids (next bigint NOT NULL);
INSERT INTO paper_order_ids SELECT coalesce(max(sequence), 0) + 1 FROM paper_orders;
