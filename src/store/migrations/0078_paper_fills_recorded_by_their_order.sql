-- A paper order the engine placed that one maker fill filled whole is recorded by its journal row
-- alone: the fill's price is the order's, its amount and fee are the order's, and its time is
-- `filled_at`. A fill row of its own was one row and about 260 WAL bytes per grid fill.
-- `paper_trades` shows every fill of the paper exchange, those rows included.
ALTER TABLE engine_orders ADD COLUMN filled_at timestamptz;
CREATE INDEX paper_fills_order ON paper_fills (account_id, order_id);
CREATE VIEW paper_trades AS
  SELECT f.order_id, f.account_id, f.pair, f.side, f.price, f.amount, f.fee, f.fee_currency, f.maker, f.at
  FROM paper_fills f
  UNION ALL
  SELECT o.exchange_order_id, o.account_id, o.pair, o.side, o.price, o.amount, o.fee, o.fee_currency, true, o.filled_at
  FROM engine_orders o JOIN accounts a ON a.id = o.account_id AND a.market_code = 'paper_trading'
  WHERE o.status = 'filled' AND o.exchange_order_id IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM paper_fills f WHERE f.account_id = o.account_id AND f.order_id = o.exchange_order_id);
