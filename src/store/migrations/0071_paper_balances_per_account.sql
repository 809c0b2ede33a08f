-- A paper account's balances as one row: a fill moves two currencies and the order placed after it
-- a third, which were a row each. The balances are JSON text, [[currency, free, locked], ...] in
-- currency order, never queried inside on the engine's path; the view keeps the old shape for
-- reading (loading the paper exchange, checks).
CREATE TABLE paper_account_balances (
  account_id bigint PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  balances text NOT NULL
) WITH (fillfactor = 50);

INSERT INTO paper_account_balances (account_id, balances)
SELECT account_id, json_agg(json_build_array(currency, free::text, locked::text) ORDER BY currency)::text
FROM paper_balances GROUP BY account_id;

DROP TABLE paper_balances;

CREATE VIEW paper_balances AS
SELECT a.account_id, b.value ->> 0 AS currency, (b.value ->> 1)::numeric AS free, (b.value ->> 2)::numeric AS locked
FROM paper_account_balances a, json_array_elements(a.balances::json) AS b;
