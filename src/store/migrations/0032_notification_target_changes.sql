-- Servers sharing one PostgreSQL database hear of target changes at once (LISTEN): an engine
-- writes no notices while no target is enabled, and must start when another server adds one.
-- Only changes that can matter notify (not a delivery noting its outcome). The payload is the
-- schema, so that servers on other schemas of the same database (test runs) ignore it.
-- One line: migrations are split at semicolons that end a line.
CREATE FUNCTION notify_notification_targets() RETURNS trigger LANGUAGE plpgsql AS
  $$ BEGIN PERFORM pg_notify('tradeloop_notification_targets', current_schema()); RETURN NULL; END $$;

CREATE TRIGGER notification_targets_changed AFTER INSERT OR DELETE OR UPDATE OF enabled ON notification_targets
  FOR EACH STATEMENT EXECUTE FUNCTION notify_notification_targets();
