-- A deal's row (its whole record as JSON, 1 to 2 KB) is rewritten whenever the deal moves; with
-- full pages most new versions went to another page, each adding an entry to all four indexes.
-- Half of each page is left free for them, as for the journal and the paper balances.
ALTER TABLE dca_deals SET (fillfactor = 50);
