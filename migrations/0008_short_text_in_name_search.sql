-- The trigram index now answers text of any length, and is a third of its former size.
--
-- Each name is indexed followed by two U+0001 characters (never in a name, nor in a search): every run of one
-- or two characters of a name then begins some trigram ("ab" in "cab" begins "ab\1"), so the names containing
-- short text are the ones indexed under a trigram that begins with it, a range of terms that
-- `share_name_trigrams` reads in order.
--
-- `detail=none` keeps only which names hold each trigram, not where: a search asks for every trigram of its text
-- and tests each name it gets for the whole text, as it already did. `columnsize=0` drops the per-name token
-- counts, which only ranking uses. Together: 46 MiB at a million names before, 16 MiB after.
DROP TRIGGER share_name_search_delete;
DROP TRIGGER share_name_search_update;
DROP TABLE share_name_search;

-- What the index holds for each row. (A view, not a generated column: SQLite 3.40's VACUUM INTO, which backups
-- use, fails on a table with a generated column when the source is opened read-only.)
CREATE VIEW share_search_text AS SELECT seq, name_key || char(1, 1) AS search_text FROM share;

CREATE VIRTUAL TABLE share_name_search USING fts5(
    search_text,
    content = 'share_search_text',
    content_rowid = 'seq',
    tokenize = 'trigram case_sensitive 1',
    detail = none,
    columnsize = 0
);

INSERT INTO share_name_search (share_name_search) VALUES ('rebuild');

-- One row per trigram of each name: `term`, and the name's row as `doc`.
CREATE VIRTUAL TABLE share_name_trigrams USING fts5vocab(share_name_search, instance);

-- New rows are indexed by the application, one INSERT ... SELECT from the view per transaction, as before.
-- The triggers write the view's text themselves: a trigger on `share` sees its rows, not the view's.

CREATE TRIGGER share_name_search_delete AFTER DELETE ON share BEGIN
    INSERT INTO share_name_search (share_name_search, rowid, search_text) VALUES ('delete', old.seq, old.name_key || char(1, 1));
END;

CREATE TRIGGER share_name_search_update AFTER UPDATE OF name_key ON share BEGIN
    INSERT INTO share_name_search (share_name_search, rowid, search_text) VALUES ('delete', old.seq, old.name_key || char(1, 1));
    INSERT INTO share_name_search (rowid, search_text) VALUES (new.seq, new.name_key || char(1, 1));
END;
