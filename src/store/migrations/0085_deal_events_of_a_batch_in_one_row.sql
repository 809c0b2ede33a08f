-- A deal's messages of one batch at one time share a row, as an automation's do (migration 0008):
-- the DCA benchmark wrote 5.6 rows per fill here, one per message. Rows written before keep their
-- single `message`.
ALTER TABLE dca_deal_events ADD COLUMN messages text[], ALTER COLUMN message DROP NOT NULL;
