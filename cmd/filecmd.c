/* filecmd.c - parse and validate: the command line, then every file. */
#include "cmd/filecmd.h"

int cl_run_file_command(const struct cl_file_command *fc, int argc, char **argv)
{
	struct cl_args args = { 0 };
	struct cl_parse_opts popts;
	struct cl_file_ctx ctx;
	int code = cl_parse_options(fc->table, argc, argv, &args);

	if (code >= 0)
		return code;
	cl_args_parse_opts(&args, &popts);
	if (fc->start && (code = fc->start(&popts)) != 0)
		return code;
	code = CL_EXIT_OK;
	ctx.format = (enum cl_out_format)args.format;
	popts.no_checksum = !(fc->checksum_in_json && ctx.format == CL_OUT_JSON);
	if (ctx.format == CL_OUT_CSV && fc->csv_header)
		fc->csv_header();
	for (int i = 0; i < args.noperands; i++) {
		struct cl_walk_result res;
		bool valid;

		ctx.file = cl_file_name(args.operands[i]);
		cl_text_safe(ctx.file, ctx.file_text, sizeof(ctx.file_text));
		valid = cl_walk_file(args.operands[i], &popts, &fc->cb, &ctx, &res);
		if (fc->done)
			fc->done(&ctx, valid, &res);
		if (!valid)
			code = cl_exit_worse(code, res.unsupported ? CL_EXIT_UNSUPPORTED
								   : CL_EXIT_INVALID);
	}
	return cl_finish_stdout(code);
}
