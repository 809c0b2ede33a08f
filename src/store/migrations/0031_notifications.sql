-- Notifications (docs/notifications.md). A target is where one user's notifications go: a webhook
-- or a Telegram chat. Its secret (the webhook's signing secret or the Telegram bot token) is
-- sealed with the master key like exchange credentials. `events` empty means every event.
CREATE TABLE notification_targets (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('webhook', 'telegram')),
  name text NOT NULL,
  url text,
  chat_id text,
  secret_sealed text NOT NULL,
  events text[] NOT NULL DEFAULT '{}',
  enabled boolean NOT NULL DEFAULT true,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'failing')),
  consecutive_failures integer NOT NULL DEFAULT 0,
  last_error text,
  last_delivered_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE INDEX notification_targets_user ON notification_targets (user_id);

-- What happened, written in the engine's batch transaction (or by the worker for the daily
-- summary). `dedupe_key` merges rows that are one notification (a grid bot's cycles of one
-- minute) and keeps a daily summary from being written twice. A row is fanned out to the user's
-- targets once `deliver_after` has passed.
CREATE TABLE notification_outbox (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL,
  event text NOT NULL,
  dedupe_key text UNIQUE,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  deliver_after timestamptz NOT NULL,
  fanned_out boolean NOT NULL DEFAULT false
);

CREATE INDEX notification_outbox_due ON notification_outbox (deliver_after) WHERE NOT fanned_out;

-- One notification to one target: pending until delivered, or failed after its last attempt.
CREATE TABLE notification_deliveries (
  outbox_id bigint NOT NULL REFERENCES notification_outbox (id) ON DELETE CASCADE,
  target_id bigint NOT NULL REFERENCES notification_targets (id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  last_error text,
  delivered_at timestamptz,
  PRIMARY KEY (outbox_id, target_id)
);

CREATE INDEX notification_deliveries_due ON notification_deliveries (next_attempt_at) WHERE status = 'pending';
