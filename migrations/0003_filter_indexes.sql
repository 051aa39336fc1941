-- Keyset paging for every sort within a type or a folder filter, over live records.
CREATE INDEX share_live_by_type_created ON share (type, created_at, id) WHERE trashed_at IS NULL;
CREATE INDEX share_live_by_type_name ON share (type, name_key, id) WHERE trashed_at IS NULL;
CREATE INDEX share_live_by_type_size ON share (type, size, id) WHERE trashed_at IS NULL;
CREATE INDEX share_live_by_folder_name ON share (folder, name_key, id) WHERE trashed_at IS NULL;
CREATE INDEX share_live_by_folder_size ON share (folder, size, id) WHERE trashed_at IS NULL;
