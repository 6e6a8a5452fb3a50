-- 001_load.sql: one row per load attempt (committed, rejected, held or
-- quarantined).  A load that never committed leaves no row: its UUID was
-- made before BEGIN, so `clearing-load loads --uuid U` finding nothing means
-- it rolled back.
CREATE TABLE clearing_load (
	load_id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	load_uuid       uuid NOT NULL UNIQUE,
	tenant          text NOT NULL,
	file_name       text NOT NULL,
	file_size       bigint,            -- raw bytes as stored (gzip: compressed)
	sha256          text,              -- lowercase hex of the raw bytes
	format          text,              -- nacha | iso20022
	message_type    text,              -- nacha | pain.001.001.09 | ...
	sender          text,              -- ACH immediate origin / ISO InitgPty or InstgAgt
	receiver        text,              -- ACH immediate destination / ISO InstdAgt
	file_created    text,              -- ACH creation date+time / ISO CreDtTm
	file_id         text,              -- ACH file id modifier / ISO MsgId
	record_count    bigint NOT NULL DEFAULT 0,
	new_count       bigint NOT NULL DEFAULT 0,
	duplicate_count bigint NOT NULL DEFAULT 0,
	conflict_count  bigint NOT NULL DEFAULT 0,
	invalid_count   bigint NOT NULL DEFAULT 0,
	outcome         text NOT NULL
		CHECK (outcome IN ('committed', 'rejected', 'held', 'quarantined')),
	reason          text,              -- why rejected / held; never account numbers
	retries         integer NOT NULL DEFAULT 0,
	started_at      timestamptz NOT NULL,
	finished_at     timestamptz
);

CREATE INDEX clearing_load_started_idx ON clearing_load (started_at);
