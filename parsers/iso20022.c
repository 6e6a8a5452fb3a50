/* iso20022.c - placeholder until the parser lands (returns an error for every file). */
#include "iso20022.h"

#include <stdlib.h>

#include "xmalloc.h"

struct cl_iso20022 {
	struct cl_input *in;
	struct cl_file_info info;
	int done;
};

struct cl_iso20022 *cl_iso20022_new(struct cl_input *in, const struct cl_parse_opts *opts)
{
	struct cl_iso20022 *p = cl_xcalloc(1, sizeof(*p));

	(void)opts;
	p->in = in;
	return p;
}

enum cl_status cl_iso20022_next(struct cl_iso20022 *p, const struct cl_record **rec, struct cl_error *err)
{
	*rec = NULL;
	if (p->done)
		return CL_END;
	p->done = 1;
	cl_error_set(err, cl_input_name(p->in), 0, "unsupported", "format not supported yet");
	return CL_INVALID;
}

const struct cl_file_info *cl_iso20022_info(const struct cl_iso20022 *p)
{
	return &p->info;
}

void cl_iso20022_free(struct cl_iso20022 *p)
{
	free(p);
}
