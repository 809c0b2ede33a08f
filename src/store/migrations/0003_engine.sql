-- The engine's own state: every automation (grid bot, SmartTrade, DCA bot) with its state as JSON
-- text (never queried inside, and text is several times cheaper to write than jsonb),
-- its event log, and the journal of every order it placed. Orders are journaled before they are
-- sent, so after a crash the engine can tell what went out and what still has to.
CREATE TABLE automations (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind text NOT NULL,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  running boolean NOT NULL,
  state text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

-- States are rewritten on every batch that changes them; compressing them costs more than it saves.
ALTER TABLE automations ALTER COLUMN state SET STORAGE EXTERNAL;

CREATE INDEX automations_running ON automations (kind) WHERE running;
CREATE INDEX automations_user ON automations (user_id, kind);

CREATE TABLE automation_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  automation_id bigint NOT NULL REFERENCES automations (id) ON DELETE CASCADE,
  message text NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE INDEX automation_events_automation ON automation_events (automation_id, id);

CREATE TABLE engine_orders (
  id bigint PRIMARY KEY,
  automation_id bigint NOT NULL REFERENCES automations (id) ON DELETE CASCADE,
  order_key text NOT NULL,
  client_order_id text NOT NULL,
  account_id bigint NOT NULL,
  pair text NOT NULL,
  role text NOT NULL,
  side text NOT NULL CHECK (side IN ('buy', 'sell')),
  order_type text NOT NULL CHECK (order_type IN ('market', 'limit')),
  time_in_force text,
  price numeric,
  amount numeric NOT NULL,
  filled numeric NOT NULL,
  filled_total numeric NOT NULL,
  fee numeric NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'open', 'filled', 'cancelled', 'rejected')),
  cancel_requested boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (account_id, client_order_id)
);

CREATE INDEX engine_orders_automation ON engine_orders (automation_id, id);
CREATE INDEX engine_orders_live ON engine_orders (automation_id) WHERE status IN ('pending', 'open');

-- Ids handed out by the engine in blocks: order journal numbers and ids automations create (deals).
CREATE SEQUENCE engine_ids;
