-- The automatic backups the nodes took (`[database] backup_dir`): when (the database's clock, milliseconds since
-- 1970), which node and into which file. A node backs the database up only when the newest row is older than
-- `backup_every`, under an advisory lock, so that several nodes take one backup per interval between them.
CREATE TABLE share_backup_run (
    taken_at bigint NOT NULL,
    node     text   NOT NULL,
    file     text   NOT NULL
);
CREATE INDEX share_backup_run_by_time ON share_backup_run (taken_at);
