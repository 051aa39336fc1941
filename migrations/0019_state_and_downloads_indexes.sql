-- Listings by downloads, as by size: over the live records, and led by the type.
CREATE INDEX share_live_by_downloads ON share (owner, downloads, id, name_key, folder) WHERE trashed_at IS NULL;
CREATE INDEX share_live_by_type_downloads ON share (owner, type, downloads, id) WHERE trashed_at IS NULL;

-- The live shares that open, by their link's state: revoked, spent (its downloads used up), then when it expires.
-- Each state is a few seeks of it (expired: spent, or past its time), however rare it is among the records.
CREATE INDEX share_live_by_state ON share (
    owner, revoked_at IS NOT NULL, (max_downloads IS NOT NULL AND downloads >= max_downloads), expires_at
) WHERE trashed_at IS NULL AND link_token IS NOT NULL;

-- The sizes of each history's live shares whose files the service holds: what `GET /me` says the files take.
CREATE INDEX share_live_files ON share (owner, size) WHERE trashed_at IS NULL AND blob IS NOT NULL;
