-- A download being sent holds a lease, renewed while its bytes go; one whose lease ran out stopped with its node
-- (killed or cut off) and gives back what it counted.
ALTER TABLE share_download ADD COLUMN sending_until INTEGER;
CREATE INDEX share_download_sending ON share_download (sending_until) WHERE sending_until IS NOT NULL;

-- The files the trash still holds: they count against their owner's quota until they are purged.
CREATE INDEX share_trashed_files ON share (owner, size) WHERE trashed_at IS NOT NULL AND blob IS NOT NULL;
