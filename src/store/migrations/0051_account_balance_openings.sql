-- A day's first recorded value beside its last: on an account's first day there is no earlier day
-- to measure the day's, month's and total profit from, and the last value is overwritten at each look.
ALTER TABLE account_balance_history ADD COLUMN opening_usd numeric;
ALTER TABLE account_balance_history ADD COLUMN opening_btc numeric;
UPDATE account_balance_history SET opening_usd = usd, opening_btc = btc;
ALTER TABLE account_balance_history ALTER COLUMN opening_usd SET NOT NULL;
ALTER TABLE account_balance_history ALTER COLUMN opening_btc SET NOT NULL;
