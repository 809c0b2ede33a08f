-- TradingView custom signals for DCA bots. Each bot gets its own secret token the first time it
-- is shown; a signal is stored here before it is acknowledged, then run once by the signal worker.
CREATE TABLE dca_bot_signal_tokens (
  bot_id bigint PRIMARY KEY REFERENCES automations (id) ON DELETE CASCADE,
  email_token uuid NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- `id` is derived from the body and the second it arrived, so a repeated delivery is stored once.
-- pending: waiting for run_at; running: taken by the worker; done or failed: finished, with the
-- outcome in plain words.
CREATE TABLE trade_signals (
  id text PRIMARY KEY,
  bot_id bigint NOT NULL REFERENCES automations (id) ON DELETE CASCADE,
  sender text NOT NULL,
  body text NOT NULL,
  received_at timestamptz NOT NULL,
  run_at timestamptz NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'running', 'done', 'failed')),
  outcome text,
  finished_at timestamptz
);

CREATE INDEX trade_signals_due ON trade_signals (run_at) WHERE status IN ('pending', 'running');
CREATE INDEX trade_signals_bot ON trade_signals (bot_id, received_at);
