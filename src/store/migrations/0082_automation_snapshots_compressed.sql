-- Snapshots are written only now and then since their changes are logged with the events (0081):
-- compressing them now saves more WAL than it costs (the grid benchmark's 5.7 KB snapshot of a
-- 100-line bot, written about once every 30 batches).
ALTER TABLE automations ALTER COLUMN state SET STORAGE EXTENDED;
