-- The journal's indexes are most of what a fill writes (each row version adds an entry to every
-- one): the orders of an automation and the uniqueness of its client order ids are one index.
-- A client order id is tl<kind><automation id>x<key> and an automation keeps its account, so an
-- order key unique per automation is a client order id unique per account.
CREATE UNIQUE INDEX engine_orders_automation_key ON engine_orders (automation_id, order_key);
DROP INDEX engine_orders_automation;
ALTER TABLE engine_orders DROP CONSTRAINT engine_orders_account_id_client_order_id_key;

-- Orders of an account are found through its automations (never updated there, so the index
-- costs nothing per fill).
CREATE INDEX automations_account ON automations (account_id);
