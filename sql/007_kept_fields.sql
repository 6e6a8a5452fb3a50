-- 007: three fields the fingerprint holds become columns:
-- a NOC's corrected data (addenda 98 36-64), the dishonored or contested
-- return code of a return (the latest 99 addenda of its life) and a
-- pacs.004's OrgnlMsgId.  clearing-load-keys(7) says they are kept with the
-- record; a conflict on one of them now names it.  Records applied before
-- this migration have them NULL (the file holds them; the fingerprint
-- already covered them, so no duplicate or conflict changes).
ALTER TABLE clearing_record
	ADD COLUMN corrected_data text,
	ADD COLUMN dishonored_code text,
	ADD COLUMN orgnl_msg_id text;
ALTER TABLE clearing_quarantine
	ADD COLUMN corrected_data text,
	ADD COLUMN dishonored_code text,
	ADD COLUMN orgnl_msg_id text;
