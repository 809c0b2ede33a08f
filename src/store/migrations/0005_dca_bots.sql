-- Deals of DCA bots. The bot's record writer upserts one snapshot row per deal, in the engine's
-- batch transaction, whenever the deal changes; the columns serve filters, sorting and the profit
-- statistics, `data` is the deal as the bot last recorded it. Deals outlive a deleted bot.
CREATE TABLE dca_deals (
  id bigint PRIMARY KEY,
  bot_id bigint NOT NULL,
  bot_name text NOT NULL,
  account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  pair text NOT NULL,
  base text NOT NULL,
  quote text NOT NULL,
  status text NOT NULL,
  finished boolean NOT NULL,
  profit_currency text NOT NULL,
  final_profit numeric,
  final_profit_percentage numeric,
  usd_final_profit numeric,
  btc_final_profit numeric,
  note text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  closed_at timestamptz,
  data jsonb NOT NULL
);

CREATE INDEX dca_deals_bot ON dca_deals (bot_id, created_at);
CREATE INDEX dca_deals_user ON dca_deals (user_id, created_at);
CREATE INDEX dca_deals_user_closed ON dca_deals (user_id, closed_at) WHERE closed_at IS NOT NULL;

-- A deal's own log (its bot_events).
CREATE TABLE dca_deal_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  deal_id bigint NOT NULL,
  message text NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE INDEX dca_deal_events_deal ON dca_deal_events (deal_id, id);

-- Pairs a user's multi-pair bots open no deals on.
CREATE TABLE dca_pairs_blacklist (
  user_id bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  pairs text[] NOT NULL
);
