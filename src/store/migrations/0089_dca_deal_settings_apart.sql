-- A deal's row is rewritten whenever the deal moves, and a new version on the same page is logged
-- from its first changed byte to its last: from `updated_at`, before the deal's text, to the end.
-- The deal's settings, 850 of its 2,000 bytes, change only when the user edits the deal: they are
-- now a column of their own after the text, where an unchanged value ends the row and is left out
-- of the log. Rows written before keep their settings in the text (and this column empty).
ALTER TABLE dca_deals ADD COLUMN settings text;
