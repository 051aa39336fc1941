-- Name search through a trigram index, so that a substring query of 3 or more characters never
-- scans the table. It indexes name_key (NFC + lowercase), the same text the query is folded to.
CREATE VIRTUAL TABLE share_name_search USING fts5(
    name_key,
    content = 'share',
    content_rowid = 'seq',
    tokenize = 'trigram case_sensitive 1'
);

INSERT INTO share_name_search (share_name_search) VALUES ('rebuild');

-- New rows are indexed by the application, with one INSERT ... SELECT per transaction: FTS5 flushes
-- its pending terms at every statement, so a per-row trigger would write a tiny segment per record
-- and make bulk imports about four times slower. Deletes and renames are rare and use triggers.

CREATE TRIGGER share_name_search_delete AFTER DELETE ON share BEGIN
    INSERT INTO share_name_search (share_name_search, rowid, name_key) VALUES ('delete', old.seq, old.name_key);
END;

CREATE TRIGGER share_name_search_update AFTER UPDATE OF name_key ON share BEGIN
    INSERT INTO share_name_search (share_name_search, rowid, name_key) VALUES ('delete', old.seq, old.name_key);
    INSERT INTO share_name_search (rowid, name_key) VALUES (new.seq, new.name_key);
END;
