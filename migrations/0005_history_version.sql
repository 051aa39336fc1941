-- A number that grows with every change to the history. Listings, records and statistics carry it in their
-- ETag, so that a client can ask whether anything changed without the server reading any record.
CREATE TABLE history_version (version INTEGER NOT NULL);
INSERT INTO history_version (version) VALUES (0);
