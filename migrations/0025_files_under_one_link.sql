-- A share may hold several files (a folder, or files sent together), their bytes one after another in its blob: their
-- paths, sizes and icons as its record shows them (`files`, JSON), NULL for a share of one file; and their CRC-32s,
-- which its ZIP carries (4 bytes each, big-endian), NULL until first read from the bytes. An upload keeps the files it
-- becomes.
ALTER TABLE share ADD COLUMN files TEXT;
ALTER TABLE share ADD COLUMN file_checksums BLOB;
ALTER TABLE share_upload ADD COLUMN files TEXT;
