-- 002_record.sql: one row per applied record, unique on (tenant, kind,
-- natural_key) for ever.  Never partitioned by time: a unique index on a
-- partitioned table must contain the partition key, so a date partition
-- would turn global uniqueness into per-partition uniqueness.
-- `clearing-load init --partitions N` sets clearing_load.partitions = N for
-- this migration's transaction, and the table is then hash-partitioned on
-- shard, the shard identity (rules/shard.h, migration 022), with the unique
-- key (tenant, kind, natural_key, shard): the shard is a function of the
-- kind and the natural key, so uniqueness stays global (the same holds for
-- a distributed table on shard).  Before schema version 22 the partition
-- key was natural_key; a database made then keeps it.
--
-- Not stored: names of people and companies, remittance and addenda text,
-- company entry descriptions (they are not needed to deduplicate, and
-- clearing-load keeps no more personal data than it must).  Account numbers
-- are stored here (needed to tell a conflict from a duplicate and to find
-- ACH near duplicates) and in clearing_quarantine, nowhere else.
DO $migration$
DECLARE
	n integer := coalesce(nullif(current_setting('clearing_load.partitions', true), ''), '0')::integer;
	columns constant text := $columns$
	tenant              text NOT NULL,
	kind                text NOT NULL,
	natural_key         text COLLATE "C" NOT NULL,
	key_rule            text NOT NULL,
	fingerprint         bytea NOT NULL,
	amount_minor        bigint NOT NULL,
	currency            text NOT NULL,
	direction           text CHECK (direction IN ('credit', 'debit')),
	value_date          date,
	trace_number        text,
	sec_code            text,
	transaction_code    text,
	receiving_dfi       text,
	receiving_account   text,
	company_id          text,
	batch_number        text,
	individual_id       text,
	reason_code         text,
	original_trace      text,
	original_rdfi       text,
	message_type        text,
	msg_id              text,
	pmt_inf_id          text,
	instr_id            text,
	end_to_end_id       text,
	tx_id               text,
	uetr                text,
	rtr_id              text,
	orgnl_uetr          text,
	orgnl_end_to_end_id text,
	orgnl_tx_id         text,
	initiating_party_id text,
	debtor_account      text,
	debtor_agent        text,
	creditor_account    text,
	creditor_agent      text,
	instructing_agent   text,
	instructed_agent    text,
	load_id             bigint NOT NULL,
	ordinal             bigint NOT NULL,
	position            bigint NOT NULL,
	shard               bigint NOT NULL
	$columns$;
BEGIN
	IF n < 0 OR n > 1024 THEN
		RAISE EXCEPTION 'clearing_load.partitions must be between 0 and 1024, not %', n;
	END IF;
	IF n = 0 THEN
		EXECUTE 'CREATE TABLE clearing_record (' || columns || ', '
			|| 'CONSTRAINT clearing_record_key PRIMARY KEY (tenant, kind, natural_key))';
	ELSE
		EXECUTE 'CREATE TABLE clearing_record (' || columns || ', '
			|| 'CONSTRAINT clearing_record_key PRIMARY KEY (tenant, kind, natural_key, shard)'
			|| ') PARTITION BY HASH (shard)';
		FOR i IN 0 .. n - 1 LOOP
			EXECUTE format('CREATE TABLE %I PARTITION OF clearing_record '
				       'FOR VALUES WITH (MODULUS %s, REMAINDER %s)',
				       'clearing_record_p' || i, n, i);
		END LOOP;
	END IF;
END
$migration$;

COMMENT ON TABLE clearing_record IS
	'clearing-load: applied records, unique on (tenant, kind, natural_key); see clearing-load-keys(7)';
