-- A deal's row (its whole record as JSON, 1 to 2 KB) is rewritten whenever the deal moves; with
-- full pages most new versions went to another page, each adding an entry to all four indexes.
-- Half of each page is left free for them, as for the journal and the paper balances. The record
-- is kept as the JSON text it is written as: nothing reads inside it in SQL, and a new version
-- of text that starts as the last did is logged without that start (jsonb moves its offsets
-- table at the front whenever a value's length changes).
ALTER TABLE dca_deals SET (fillfactor = 50);
ALTER TABLE dca_deals ALTER COLUMN data TYPE text;
