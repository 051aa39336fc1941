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

ALTER TABLE share ADD COLUMN search_text TEXT GENERATED ALWAYS AS (name_key || char(1, 1)) VIRTUAL;

CREATE VIRTUAL TABLE share_name_search USING fts5(
    search_text,
    content = 'share',
    content_rowid = 'seq',
    tokenize = 'trigram case_sensitive 1',
    detail = none,
    columnsize = 0
);

INSERT INTO share_name_search (share_name_search) VALUES ('rebuild');

-- One row per trigram of each name: `term`, and the name's row as `doc`.
CREATE VIRTUAL TABLE share_name_trigrams USING fts5vocab(share_name_search, instance);

-- New rows are indexed by the application, one INSERT ... SELECT per transaction, as before.

CREATE TRIGGER share_name_search_delete AFTER DELETE ON share BEGIN
    INSERT INTO share_name_search (share_name_search, rowid, search_text) VALUES ('delete', old.seq, old.search_text);
END;

CREATE TRIGGER share_name_search_update AFTER UPDATE OF name_key ON share BEGIN
    INSERT INTO share_name_search (share_name_search, rowid, search_text) VALUES ('delete', old.seq, old.search_text);
    INSERT INTO share_name_search (rowid, search_text) VALUES (new.seq, new.search_text);
END;
