-- Backtests started over HTTP (/ext/backtests): what was asked, how far the run is, and the result
-- or the error once it ended. A backtest still running when the server stops runs again from the
-- start when it starts (a backtest is deterministic, so the result is the same). The result is
-- JSON text: it is only ever read whole.
CREATE TABLE backtests (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('running', 'finished', 'failed', 'cancelled')),
  progress integer NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
  request text NOT NULL,
  result text,
  error text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  finished_at timestamptz
);

CREATE INDEX backtests_user ON backtests (user_id, id);
CREATE INDEX backtests_running ON backtests (id) WHERE status = 'running';
