-- Exchange accounts. Paper accounts have no credentials; real ones keep theirs sealed with the
-- master key, plus a hash of the exchange API key to refuse connecting the same key twice.
CREATE TABLE accounts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  market_code text NOT NULL,
  sealed_credentials text,
  exchange_key_hash text,
  include_in_summary boolean NOT NULL DEFAULT true,
  api_key_invalid boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  CHECK ((market_code = 'paper_trading') = (sealed_credentials IS NULL))
);

CREATE INDEX accounts_user_id ON accounts (user_id);
CREATE UNIQUE INDEX accounts_exchange_key ON accounts (market_code, exchange_key_hash)
  WHERE exchange_key_hash IS NOT NULL AND deleted_at IS NULL;

-- Fee overrides per paper account; accounts without a row pay the configured default.
CREATE TABLE paper_fees (
  account_id bigint PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  maker numeric NOT NULL,
  taker numeric NOT NULL
);

CREATE TABLE paper_balances (
  account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  currency text NOT NULL,
  free numeric NOT NULL,
  locked numeric NOT NULL,
  PRIMARY KEY (account_id, currency)
);

-- Order ids are P<sequence>; the sequence continues from the highest stored id after a restart.
CREATE TABLE paper_orders (
  id text PRIMARY KEY,
  sequence bigint NOT NULL UNIQUE,
  account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  client_order_id text NOT NULL,
  pair text NOT NULL,
  side text NOT NULL CHECK (side IN ('buy', 'sell')),
  type text NOT NULL CHECK (type IN ('market', 'limit')),
  price numeric,
  amount numeric NOT NULL,
  filled numeric NOT NULL,
  filled_total numeric NOT NULL,
  fee numeric NOT NULL,
  fee_currency text NOT NULL,
  status text NOT NULL CHECK (status IN ('open', 'filled', 'cancelled', 'rejected')),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (account_id, client_order_id)
);

CREATE INDEX paper_orders_open ON paper_orders (account_id) WHERE status = 'open';

CREATE TABLE paper_fills (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  order_id text NOT NULL REFERENCES paper_orders (id) ON DELETE CASCADE,
  account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  pair text NOT NULL,
  side text NOT NULL,
  price numeric NOT NULL,
  amount numeric NOT NULL,
  fee numeric NOT NULL,
  fee_currency text NOT NULL,
  maker boolean NOT NULL,
  at timestamptz NOT NULL
);

CREATE INDEX paper_fills_account ON paper_fills (account_id, at);

-- One valuation per account and UTC day, kept current as balances change (balance_chart_data).
CREATE TABLE account_balance_history (
  account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  day date NOT NULL,
  usd numeric NOT NULL,
  btc numeric NOT NULL,
  PRIMARY KEY (account_id, day)
);
