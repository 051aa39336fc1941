-- A random word that the history's ETags carry beside its version. A restore draws a new one, so a history
-- brought back from a backup never answers 304 to a tag of the history it replaced, even where its version
-- number comes back to the same value.
ALTER TABLE history_version ADD COLUMN epoch TEXT NOT NULL DEFAULT '';
UPDATE history_version SET epoch = lower(hex(randomblob(6)));
