-- Where the paper market's replay of the shipped candles stopped, per replay period, so that a
-- restart continues from there instead of rewinding.
CREATE TABLE paper_replay_positions (
  period text PRIMARY KEY,
  position timestamptz NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
