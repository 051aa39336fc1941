-- What a recipient's page says of a share besides the file: who sent it (a name its owner chose) and a message.
-- Kept on the share and on an upload that becomes one, NULL when not given.
ALTER TABLE share ADD COLUMN sender TEXT;
ALTER TABLE share ADD COLUMN message TEXT;
ALTER TABLE share_upload ADD COLUMN sender TEXT;
ALTER TABLE share_upload ADD COLUMN message TEXT;
