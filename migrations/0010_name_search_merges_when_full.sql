-- The trigram index no longer merges its segments a little at every commit.
--
-- FTS5 writes each transaction's names as a small segment of their own and, by default ("automerge"), merges
-- segments a step further at every commit. On a large history those steps were a third of the write-ahead log a
-- change wrote: about seven of twenty-two pages per create, rename or trashing, each merge step rewriting pages of
-- a half-made segment. Now a level's segments are merged all at once when it holds sixteen ("crisismerge", the
-- same bound on how many segments a search reads as before): far fewer pages for the same merged index.
INSERT INTO share_name_search (share_name_search, rank) VALUES ('automerge', 0);
INSERT INTO share_name_search (share_name_search, rank) VALUES ('crisismerge', 16);
