CREATE TABLE users (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL UNIQUE,
  mode text NOT NULL DEFAULT 'paper' CHECK (mode IN ('paper', 'real')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- The API key itself is stored only as a SHA-256 hash (plus a short prefix to recognise it);
-- the HMAC secret must be recomputable, so it is sealed with the master key instead.
CREATE TABLE api_keys (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  key_prefix text NOT NULL,
  scheme text NOT NULL CHECK (scheme IN ('hmac', 'rsa')),
  sealed_secret text,
  rsa_public_key text,
  permissions text[] NOT NULL,
  strict boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz,
  CHECK ((scheme = 'hmac') = (sealed_secret IS NOT NULL)),
  CHECK ((scheme = 'rsa') = (rsa_public_key IS NOT NULL))
);

CREATE INDEX api_keys_user_id ON api_keys (user_id);
