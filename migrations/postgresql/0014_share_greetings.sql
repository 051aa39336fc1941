-- What a recipient's page says of a share besides the file: who sent it (a name its owner chose) and a message.
-- Kept on the share, on an import's staged rows and on an upload that becomes a share, NULL when not given.
ALTER TABLE share ADD COLUMN sender text, ADD COLUMN message text;
ALTER TABLE share_import ADD COLUMN sender text, ADD COLUMN message text;
ALTER TABLE share_upload ADD COLUMN sender text, ADD COLUMN message text;
