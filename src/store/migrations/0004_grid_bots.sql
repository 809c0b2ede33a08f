-- One row per completed buy -> sell cycle of a grid bot (GET /ver1/grid_bots/:id/profits). The
-- line is stored as it was when the profit was booked, because lines move and are replaced.
CREATE TABLE grid_bot_profits (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  automation_id bigint NOT NULL REFERENCES automations (id) ON DELETE CASCADE,
  grid_line_id bigint NOT NULL,
  line_price numeric NOT NULL,
  line_side text CHECK (line_side IN ('buy', 'sell')),
  line_order_placed boolean NOT NULL,
  profit numeric NOT NULL,
  usd_profit numeric,
  created_at timestamptz NOT NULL
);

CREATE INDEX grid_bot_profits_automation ON grid_bot_profits (automation_id, created_at);
