-- Owner numbers are never given twice: AUTOINCREMENT keeps SQLite from giving again the number of a user row that
-- is gone, and the sequence starts past every number a record carries, so a number that some records hold without
-- a user row (left by a write that was rolled back while its number was remembered) is never given to a new user.
-- `made_at` (milliseconds since 1970; NULL before this migration) lets `shared check` tell which records were written
-- while their owner's history existed.
CREATE TABLE share_user_numbered (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    name    TEXT    NOT NULL UNIQUE,
    made_at INTEGER
);
INSERT INTO share_user_numbered (id, name) SELECT id, name FROM share_user ORDER BY id;
DROP TABLE share_user;
ALTER TABLE share_user_numbered RENAME TO share_user;
DELETE FROM sqlite_sequence WHERE name IN ('share_user', 'share_user_numbered');
INSERT INTO sqlite_sequence (name, seq)
    SELECT 'share_user', max(coalesce((SELECT max(id) FROM share_user), 0), coalesce((SELECT max(owner) FROM share WHERE owner >= 0), 0));
