-- An import's staged records are written to the log like every other table: an unlogged table is emptied by crash
-- recovery and missing on a standby after a failover, and an import would then finish with records missing.
ALTER TABLE share_import SET LOGGED;
-- The order the records came in, which they join the history in: a line may hold many records (a JSON array).
ALTER TABLE share_import ADD COLUMN position bigint NOT NULL DEFAULT 0;
