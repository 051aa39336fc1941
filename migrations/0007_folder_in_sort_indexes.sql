-- Listings now choose between reading an index in order and reading a filter's rows (ListingPlanner): a folder
-- sorted by name or size is read from the sort's own index, which holds the folder so that each entry is tested
-- without reading the table. The two indexes led by the folder for those sorts go: the history with its events
-- stays within the size it had before them.
DROP INDEX share_live_by_folder_name;
DROP INDEX share_live_by_folder_size;
DROP INDEX share_live_by_name;
CREATE INDEX share_live_by_name ON share (name_key, id, folder) WHERE trashed_at IS NULL;
DROP INDEX share_live_by_size;
CREATE INDEX share_live_by_size ON share (size, id, name_key, folder) WHERE trashed_at IS NULL;
