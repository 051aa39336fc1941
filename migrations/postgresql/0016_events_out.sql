-- Events out: every change of a history, as webhooks, the live stream and the feed send it.
-- A download counted is an event of its record too: the count it reached and the access log's entry.
ALTER TABLE share_event ADD COLUMN downloads bigint, ADD COLUMN download_seq bigint;

-- Each history's events, written by the trigger below in the transaction of the change (a change rolled back sends
-- nothing; one committed is here when its node is killed next), numbered in the order their transactions commit
-- within each history: readers go on from the last number they saw and must never find a smaller one later.
-- What the record was at that moment is kept with it, so that a delivery retried later, or after the record is
-- purged, says the same.
CREATE TABLE history_event (
    seq        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    owner      bigint NOT NULL,
    share_id   text   NOT NULL,
    name       text   NOT NULL,
    folder     text   NOT NULL,
    size       bigint NOT NULL,
    type       text   NOT NULL,
    action     text   NOT NULL,
    from_value text,
    to_value   text,
    by         text   NOT NULL,
    at         bigint NOT NULL,
    downloads  bigint,
    address    text,
    agent      text
);
CREATE INDEX history_event_by_owner ON history_event (owner, seq);

-- An import's records are its own event each in their history, not one sent out each (an import may hold millions);
-- `shared migrate` copies a history's events and sets share.copying, so that they are not sent out again.
CREATE FUNCTION share_event_out() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('share.copying', true) IS DISTINCT FROM 'on' THEN
        -- Each history's events are numbered by one transaction at a time, held until it commits.
        PERFORM pg_advisory_xact_lock(17750, owner::integer)
        FROM (SELECT DISTINCT s.owner FROM added a JOIN share s ON s.seq = a.share_seq WHERE a.action <> 'imported' ORDER BY 1) owners;
        INSERT INTO history_event (owner, share_id, name, folder, size, type, action, from_value, to_value, by, at, downloads, address, agent)
        SELECT s.owner, s.id, s.name, s.folder, s.size, s.type, a.action, a.from_value, a.to_value, a.by, a.at,
            a.downloads, d.address, d.agent
        FROM added a JOIN share s ON s.seq = a.share_seq LEFT JOIN share_download d ON d.seq = a.download_seq
        WHERE a.action <> 'imported' ORDER BY a.seq;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER share_event_out AFTER INSERT ON share_event REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION share_event_out();

-- Webhooks: each sends its history's events, in order, from the one after `cursor`. `attempt` counts the failures of
-- the event at hand, `next_at` is when to try it again; the node delivering holds `lease_until`.
CREATE TABLE hook (
    id               text    PRIMARY KEY,
    owner            bigint  NOT NULL,
    url              text    NOT NULL,
    events           text    NOT NULL,
    description      text    NOT NULL DEFAULT '',
    secret           text    NOT NULL,
    old_secret       text,
    old_secret_until bigint,
    enabled          boolean NOT NULL DEFAULT true,
    disabled_reason  text,
    created_at       bigint  NOT NULL,
    cursor           bigint  NOT NULL,
    attempt          integer NOT NULL DEFAULT 0,
    next_at          bigint  NOT NULL DEFAULT 0,
    lease_until      bigint  NOT NULL DEFAULT 0
);
CREATE INDEX hook_by_owner ON hook (owner, created_at);

-- Every attempt to deliver an event to a hook: its answer's status (0: none), how long it took, what went wrong.
CREATE TABLE hook_delivery (
    seq       bigint  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    hook_id   text    NOT NULL REFERENCES hook (id) ON DELETE CASCADE,
    event_seq bigint  NOT NULL,
    type      text    NOT NULL,
    attempt   integer NOT NULL,
    at        bigint  NOT NULL,
    status    integer NOT NULL,
    ms        integer NOT NULL,
    error     text
);
CREATE INDEX hook_delivery_by_hook ON hook_delivery (hook_id, seq);

-- Events asked to be sent again (`POST /hooks/{id}/deliveries/{delivery}/retry`), sent before the hook goes on.
CREATE TABLE hook_resend (
    hook_id   text   NOT NULL REFERENCES hook (id) ON DELETE CASCADE,
    event_seq bigint NOT NULL,
    PRIMARY KEY (hook_id, event_seq)
);

-- Each history's feed key (`/feed/{key}.atom`), made when first asked for.
CREATE TABLE history_feed (
    owner bigint PRIMARY KEY,
    key   text   NOT NULL UNIQUE
);
