-- Listings by downloads, as by size.
CREATE INDEX share_live_by_downloads ON share (owner, downloads, id_key) WHERE trashed_at IS NULL;

-- The live shares that open, by their link's state: revoked or not, then when it expires; and apart, the ones whose
-- downloads are used up. Each state is a few ranges of them, however rare it is among the records.
CREATE INDEX share_live_by_state ON share (owner, revoked_at, expires_at) WHERE trashed_at IS NULL AND link_token IS NOT NULL;
CREATE INDEX share_live_spent ON share (owner, created_at)
    WHERE trashed_at IS NULL AND link_token IS NOT NULL AND revoked_at IS NULL AND max_downloads IS NOT NULL AND downloads >= max_downloads;

-- The sizes of each history's live shares whose files the service holds: what `GET /me` says the files take.
CREATE INDEX share_live_files ON share (owner, size) WHERE trashed_at IS NULL AND blob IS NOT NULL;
