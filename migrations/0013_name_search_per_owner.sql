-- The trigram index of names now leads with the owner, as every other index the listing reads does.
--
-- A name's entry in the index is no longer its row's `seq` but `owner * 2^40 + seq` (a "doc"): each trigram's list
-- of names, kept in doc order, then holds one history's names together, and a search seeks to its own history's
-- part (FTS5 answers `rowid >= first AND rowid <= last` by seeking) instead of reading every history's names and
-- looking up each row to learn whose it is. Under a shared history every record is nobody's (owner 0), and a doc
-- is its seq as before. A seq stays below 2^40: rows are numbered one after another, as SQLite numbers them.
DROP TRIGGER share_name_search_delete;
DROP TRIGGER share_name_search_update;
DROP TABLE share_name_trigrams;
DROP TABLE share_name_search;
DROP VIEW share_search_text;

CREATE VIEW share_search_text AS SELECT seq, (owner << 40) + seq AS doc, name_key || char(1, 1) AS search_text FROM share;
CREATE VIRTUAL TABLE share_name_search USING fts5(
    search_text,
    content = 'share_search_text',
    content_rowid = 'doc',
    tokenize = 'trigram case_sensitive 1',
    detail = none,
    columnsize = 0
);
INSERT INTO share_name_search (share_name_search) VALUES ('rebuild');
INSERT INTO share_name_search (share_name_search, rank) VALUES ('automerge', 0);
INSERT INTO share_name_search (share_name_search, rank) VALUES ('crisismerge', 16);
CREATE VIRTUAL TABLE share_name_trigrams USING fts5vocab(share_name_search, instance);

-- New rows are still indexed by the application, one INSERT ... SELECT from the view per transaction. A record
-- given an owner (`shared assign`) moves in the index with its name.
CREATE TRIGGER share_name_search_delete AFTER DELETE ON share BEGIN
    INSERT INTO share_name_search (share_name_search, rowid, search_text)
        VALUES ('delete', (old.owner << 40) + old.seq, old.name_key || char(1, 1));
END;
CREATE TRIGGER share_name_search_update AFTER UPDATE OF name_key, owner ON share BEGIN
    INSERT INTO share_name_search (share_name_search, rowid, search_text)
        VALUES ('delete', (old.owner << 40) + old.seq, old.name_key || char(1, 1));
    INSERT INTO share_name_search (rowid, search_text) VALUES ((new.owner << 40) + new.seq, new.name_key || char(1, 1));
END;
