-- Actions sent to a server whose engine does not run the account: the request is stored here, the
-- engine holding the account's lease is woken (NOTIFY tradeloop_commands, payload the account) and
-- claims the row at its lease epoch, runs it through its own API and stores the answer (NOTIFY
-- tradeloop_command_answers, payload the command). A claim is made once: a command whose claimer
-- lost the account unanswered is answered 503 by the waiting server and never run again.
CREATE TABLE engine_commands (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL,
  request jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  claimed_by text,
  claimed_epoch bigint,
  claimed_at timestamptz,
  status integer,
  answer jsonb,
  answered_at timestamptz
);

CREATE INDEX engine_commands_waiting ON engine_commands (id) WHERE claimed_by IS NULL;
CREATE INDEX engine_commands_answered ON engine_commands (answered_at) WHERE answered_at IS NOT NULL;
