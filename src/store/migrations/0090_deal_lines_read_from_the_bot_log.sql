-- A deal's log lines were written twice: in its bot's event rows, led by the deal's pair and id
-- ("USDT_BTC deal #12: "), and in `dca_deal_events`, a row per deal and batch (1.3 rows a fill in
-- the DCA benchmark). Now they are read from the bot's event rows, and `dca_deal_events` keeps only
-- the lines of deals whose bot was removed, moved there by the removal's trigger. `log_after`: the
-- deal's lines are in event rows after this one (the bot's last row before the deal began), so a
-- read does not walk the bot's older rows.
ALTER TABLE dca_deals ADD COLUMN log_after bigint NOT NULL DEFAULT 0;

-- Their bots' event rows hold the same lines.
DELETE FROM dca_deal_events e USING dca_deals d, automations a WHERE e.deal_id = d.id AND a.id = d.bot_id AND a.kind = 'dca_bot';

-- A DCA bot removed first moves its deals' lines out of its event rows, a row per deal and event row.
-- One line: migrations are split at semicolons that end a line.
CREATE OR REPLACE FUNCTION remove_automation_history() RETURNS trigger LANGUAGE plpgsql AS
  $$ BEGIN INSERT INTO paper_account_balances AS b (account_id, balances, logged_after) SELECT OLD.account_id, e.balances, e.id FROM automation_events e WHERE e.automation_id = OLD.id AND e.balances IS NOT NULL ORDER BY e.id DESC LIMIT 1 ON CONFLICT (account_id) DO UPDATE SET balances = EXCLUDED.balances, logged_after = EXCLUDED.logged_after WHERE b.logged_after < EXCLUDED.logged_after; IF OLD.kind = 'dca_bot' THEN INSERT INTO dca_deal_events (deal_id, messages, created_at) SELECT d.id, array_agg(substr(l.message, length(d.pair) + length(d.id::text) + 10) ORDER BY l.n), min(l.created_at) FROM (SELECT e.id AS row_id, e.created_at, m.message, m.n, substring(m.message FROM '^[^ ]+ deal #([0-9]+): ')::bigint AS deal_id FROM automation_events e CROSS JOIN LATERAL unnest(e.messages) WITH ORDINALITY AS m (message, n) WHERE e.automation_id = OLD.id) l JOIN dca_deals d ON d.id = l.deal_id AND d.bot_id = OLD.id AND starts_with(l.message, d.pair || ' deal #' || d.id || ': ') GROUP BY d.id, l.row_id ORDER BY l.row_id, d.id; END IF; DELETE FROM engine_orders WHERE automation_id = OLD.id; DELETE FROM automation_events WHERE automation_id = OLD.id; DELETE FROM grid_bot_profits WHERE automation_id = OLD.id; RETURN NULL; END $$;
