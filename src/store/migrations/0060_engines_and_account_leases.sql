-- Several servers on one PostgreSQL database: the engines that run, and which one steps each
-- exchange account. A lease row is renewed by its engine's heartbeat; `expires_at` is on the
-- database's clock, so engines on machines whose clocks differ agree on it. `epoch` is the fencing
-- token: it grows each time another engine (or the same one after a loss) takes the account, and
-- every engine batch checks it, under a share lock, before it writes (docs/scaling.md).
CREATE TABLE engines (
  id text PRIMARY KEY,
  host text NOT NULL,
  pid integer NOT NULL,
  role text NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now()
);

-- engine_id is null once the engine handed the account back (SIGTERM); the epoch stays.
CREATE TABLE account_leases (
  account_id bigint PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  engine_id text,
  epoch bigint NOT NULL,
  expires_at timestamptz NOT NULL
);

CREATE INDEX account_leases_engine ON account_leases (engine_id);
