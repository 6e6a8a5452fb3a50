/* walk.c - one file through the parser, no database. */
#include "walk.h"

#include <string.h>

bool cl_walk_file(const char *path, const struct cl_parse_opts *opts,
		  const struct cl_walk_cb *cb, void *ctx, struct cl_walk_result *res)
{
	struct cl_input *in = NULL;
	struct cl_parser *p = NULL;
	struct cl_error err;
	const struct cl_record *rec;
	enum cl_status st;

	memset(res, 0, sizeof(*res));
	if (cl_input_open_path(path, &in, &err) != CL_OK) {
		res->errors++;
		cb->on_error(ctx, &err);
		return false;
	}
	st = cl_parser_open(in, opts, &p, &err);
	if (st != CL_OK) {
		res->errors++;
		cb->on_error(ctx, &err);
		goto done;
	}
	while ((st = cl_parser_next(p, &rec, &err)) != CL_END) {
		switch (st) {
		case CL_OK:
			if (cb->on_record)
				cb->on_record(ctx, rec);
			break;
		case CL_NOTE:
			if (cb->on_note)
				cb->on_note(ctx, &err);
			break;
		case CL_INVALID:
		case CL_IO:
			res->errors++;
			cb->on_error(ctx, &err);
			break;
		case CL_END:
			break;
		}
		if (st == CL_IO)
			break;
	}
	res->info = *cl_parser_info(p);
done:
	if (res->errors == 0 || st != CL_IO) {
		/* read to the end so the checksum covers the whole file */
		char buf[4096];
		long r;

		while ((r = cl_input_read(in, buf, sizeof(buf), &err)) > 0)
			;
	}
	memcpy(res->sha256, cl_input_sha256_hex(in), sizeof(res->sha256));
	res->bytes = cl_input_raw_bytes(in);
	cl_parser_free(p);
	cl_input_free(in);
	return res->errors == 0;
}
