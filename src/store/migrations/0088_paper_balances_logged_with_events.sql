-- A batch that moved a paper account's balances rewrote the account's balances row, and logged
-- the events and state changes of the account's automations in rows of their own: at one bot
-- per account, two rows per batch. Now the batch logs the balances in the event row of one of the
-- account's automations (`automation_events.balances`, JSON as `paper_account_balances.balances`)
-- when it writes one, and the balances row only when it writes none, or every so many batches.
-- An account's balances are the newest of its row and of the balances logged after the row's
-- `logged_after`, an event id (docs/architecture.md).
ALTER TABLE automation_events ADD COLUMN balances text;
ALTER TABLE paper_account_balances ADD COLUMN logged_after bigint NOT NULL DEFAULT 0;

-- An automation removed takes its event rows along: the balances they logged last are kept first.
-- One line: migrations are split at semicolons that end a line.
CREATE OR REPLACE FUNCTION remove_automation_history() RETURNS trigger LANGUAGE plpgsql AS
  $$ BEGIN INSERT INTO paper_account_balances AS b (account_id, balances, logged_after) SELECT OLD.account_id, e.balances, e.id FROM automation_events e WHERE e.automation_id = OLD.id AND e.balances IS NOT NULL ORDER BY e.id DESC LIMIT 1 ON CONFLICT (account_id) DO UPDATE SET balances = EXCLUDED.balances, logged_after = EXCLUDED.logged_after WHERE b.logged_after < EXCLUDED.logged_after; DELETE FROM engine_orders WHERE automation_id = OLD.id; DELETE FROM automation_events WHERE automation_id = OLD.id; DELETE FROM grid_bot_profits WHERE automation_id = OLD.id; RETURN NULL; END $$;

-- Each paper account's balances as they stand (an account's first balances may have been logged
-- before its row was written). Each of its automations' last event row that logged balances is
-- found by the key's index, from the newest back: a scan of every event row per account took
-- 1.8 s to read 500 accounts.
CREATE VIEW paper_current_balances AS
SELECT x.id AS account_id, coalesce(l.balances, b.balances) AS balances
FROM accounts x LEFT JOIN paper_account_balances b ON b.account_id = x.id LEFT JOIN LATERAL (
  SELECT last.balances FROM automations a CROSS JOIN LATERAL (
    SELECT e.id, e.balances FROM automation_events e
    WHERE e.automation_id = a.id AND e.id > coalesce(b.logged_after, 0) AND e.balances IS NOT NULL
    ORDER BY e.id DESC LIMIT 1
  ) last
  WHERE a.account_id = x.id
  ORDER BY last.id DESC LIMIT 1
) l ON true
WHERE x.market_code = 'paper_trading' AND coalesce(l.balances, b.balances) IS NOT NULL;

CREATE OR REPLACE VIEW paper_balances AS
SELECT c.account_id, v.value ->> 0 AS currency, (v.value ->> 1)::numeric AS free, (v.value ->> 2)::numeric AS locked
FROM paper_current_balances c, json_array_elements(c.balances::json) AS v;
