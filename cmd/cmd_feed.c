/* cmd_feed.c - `clearing-load feed`: the records applied since a
 * consumer's acknowledged position, in commit order (loader/feed.h). */
#include "cmd/cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/dbconn.h"
#include "cmd/history_print.h"
#include "cmd/options.h"
#include "loader/feed.h"
#include "loader/schema.h"

static int need_consumer(struct cl_args *args)
{
	return args->consumer ? 0 : cl_usage_error(args->cmd, "--consumer NAME is required");
}

static const struct cl_option feed_command[] = {
	CL_OPT_USAGE("feed", CL_NO_OPERANDS, "--consumer NAME [--ack POSITION] [OPTION]..."),
	CL_OPT_TEXT("Print the records applied since consumer NAME's acknowledged position in "
		    "the order their loads committed and then file order, each with its "
		    "feed_position; with --ack, acknowledge everything up to POSITION instead.  "
		    "Until a consumer acknowledges, it gets the same records again, with the same "
		    "positions and natural keys."),
	CL_OPT_CHECKED(0, "consumer", "NAME", consumer, cl_valid_tenant,
		       "1 to 63 of a-z 0-9 _ . -, starting with a letter or digit",
		       "the consumer whose position is read or moved (required)"),
	CL_OPT_STRING(0, "ack", "POSITION", ack,
		      "acknowledge every record up to POSITION (a feed_position printed "
		      "before); a position only moves forward"),
	CL_OPT_TENANT_AS("only records of this tenant (default: all tenants)"),
	CL_OPT_LIMIT("at most N records (1-1000000, default 1000)"),
	CL_OPT_DB(),
	CL_OPT_FORMAT(),
	CL_OPT_BOOL(0, "no-mask", no_mask,
		    "print account numbers in full in the text format too (json and csv are "
		    "never masked: a receiver keys on what they carry)"),
	CL_OPT_QUIET("no note of how many records were printed"),
	CL_OPT_CHECK(need_consumer),
	CL_OPT_TEXT("Exit status: 0 success (also: nothing new), 2 usage error, 5 database "
		    "error, 7 --ack of a position no applied record has, 75 retry later, 78 "
		    "configuration, also row security hiding every tenant this consumer could "
		    "read (see 'clearing-load help')."),
	CL_OPT_END(),
};

/* A feed position: digits only, as printed. */
static bool parse_position(const char *s, long long *out)
{
	char *end;

	if (!*s || strspn(s, "0123456789") != strlen(s))
		return false;
	errno = 0;
	*out = strtoll(s, &end, 10);
	return errno == 0 && *end == '\0';
}

static int feed(const struct cl_args *args, struct cl_db *db)
{
	struct cl_history_out out = { (enum cl_out_format)args->format, NULL };
	struct cl_error err;
	long long pos = 0, now = 0;

	if (args->ack && !parse_position(args->ack, &pos))
		return cl_usage_error(args->cmd, "invalid --ack \"%s\" (expected a feed_position: "
						 "digits)", args->ack);
	if (cl_schema_check(db, &err) != CL_DB_OK)
		return cl_db_failed(&err);
	if (args->ack) {
		bool exists;

		if (cl_feed_ack(db, args->consumer, pos, &exists, &now, &err) != CL_DB_OK)
			return cl_db_failed(&err);
		if (!exists) {
			cl_msg("no applied record has feed position %lld: nothing acknowledged "
			       "(consumer %s stays at %lld)", pos, args->consumer, now);
			return cl_finish_stdout(CL_EXIT_NOT_FOUND);
		}
		if (now > pos)
			cl_msg("consumer %s had acknowledged %lld already: its position stays",
			       args->consumer, now);
		else if (!cl_opt_quiet)
			cl_msg("consumer %s acknowledged up to %lld", args->consumer, now);
		return cl_finish_stdout(CL_EXIT_OK);
	}
	{
		unsigned long found;
		bool blind;

		if (cl_feed_blind(db, args->tenant, &blind, &err) != CL_DB_OK)
			return cl_db_failed(&err);
		if (blind) {
			if (args->tenant)
				cl_msg("row security hides tenant %s from this login: consumer %s "
				       "would receive nothing (hint: clearing-load init "
				       "--tenant-access ROLE=%s, as the schema's owner)",
				       args->tenant, args->consumer, args->tenant);
			else
				cl_msg("row security hides every tenant from this login: consumer %s "
				       "would receive nothing (hint: clearing-load init "
				       "--tenant-access ROLE=TENANT, as the schema's owner)",
				       args->consumer);
			return cl_finish_stdout(CL_EXIT_CONFIG);
		}

		/* What a receiver keys on travels whole: a masked natural key
		 * makes two payments one key (two debtors whose IBANs end alike).
		 * Masking is for people's terminals; who may read the feed is
		 * the consumer role's privilege. */
		if (args->format != CL_OUT_TEXT)
			cl_opt_no_mask = true;
		if (cl_feed_read(db, args->consumer, args->tenant, args->limit, cl_history_print,
				 &out, &pos, &found, &err) != CL_DB_OK)
			return cl_db_failed(&err);
		if (!cl_opt_quiet)
			cl_msg("%lu record%s after position %lld of consumer %s%s", found,
			       found == 1 ? "" : "s", pos, args->consumer,
			       found == args->limit ? " (the limit: more may follow)" : "");
	}
	return cl_finish_stdout(CL_EXIT_OK);
}

int cl_cmd_feed(int argc, char **argv)
{
	struct cl_args args = { .limit = 1000 };

	return cl_run_db_command(feed_command, &args, argc, argv, feed);
}
