-- An import's staged records are written to the log like every other table: an unlogged table is emptied by crash
-- recovery and missing on a standby after a failover, and an import would then finish with records missing.
ALTER TABLE share_import SET LOGGED;
