-- A delivery being sent is claimed: its next_attempt_at moves to the claim's end. `claimed` tells
-- such a claim from a retry's pause, so that a server alone on its database (the embedded one) sends
-- at start what a crash left claimed, instead of waiting the claim out.
ALTER TABLE notification_deliveries ADD COLUMN claimed boolean NOT NULL DEFAULT false;
