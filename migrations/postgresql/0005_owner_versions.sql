-- Each history's own count of changes, which its ETags are made of: one user's writes never change another's tags
-- (share_history's version, which every change raises, would tell one user of another's activity).
CREATE TABLE share_owner_version (
    owner   bigint PRIMARY KEY,
    version bigint NOT NULL
);
