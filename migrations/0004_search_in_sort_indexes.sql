-- A search for common text reads rows in the listing's order and tests each name: with the folded name in
-- the sort index itself, rows that do not match are rejected without reading the table.
DROP INDEX share_live_by_created;
CREATE INDEX share_live_by_created ON share (created_at, id, name_key) WHERE trashed_at IS NULL;
DROP INDEX share_live_by_size;
CREATE INDEX share_live_by_size ON share (size, id, name_key) WHERE trashed_at IS NULL;
