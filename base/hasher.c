/* hasher.c - SHA-256 of the raw input on a second thread. */
#include "base/hasher.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/sha256.h"
#include "base/xmalloc.h"

#define SLOTS 4
#define SLOT_SIZE (64 * 1024)

struct ring {
	pthread_mutex_t mu;
	pthread_cond_t nonempty, nonfull;
	unsigned head;            /* next slot the thread hashes */
	unsigned count;           /* slots committed and not yet hashed */
	bool eof;                 /* no more slots will come */
	size_t len[SLOTS];
	unsigned char slot[SLOTS][SLOT_SIZE];
};

struct cl_hasher {
	struct cl_sha256 *ctx;
	size_t inline_bytes;      /* hashed inline so far */
	bool threaded;            /* the thread owns ctx until final() */
	pthread_t thread;
	struct ring *ring;        /* allocated when the thread starts */
	unsigned tail;            /* the slot update() fills (not yet committed) */
	size_t fill;              /* bytes in that slot */
};

struct cl_hasher *cl_hasher_new(void)
{
	struct cl_hasher *h = cl_xcalloc(1, sizeof(*h));

	h->ctx = cl_sha256_new();
	return h;
}

static void *hash_slots(void *arg)
{
	struct cl_hasher *h = arg;
	struct ring *r = h->ring;

	for (;;) {
		unsigned i;

		pthread_mutex_lock(&r->mu);
		while (r->count == 0 && !r->eof)
			pthread_cond_wait(&r->nonempty, &r->mu);
		if (r->count == 0) {
			pthread_mutex_unlock(&r->mu);
			return NULL;
		}
		i = r->head;
		pthread_mutex_unlock(&r->mu);
		/* slot i is the thread's until head moves on */
		cl_sha256_update(h->ctx, r->slot[i], r->len[i]);
		pthread_mutex_lock(&r->mu);
		r->head = (r->head + 1) % SLOTS;
		r->count--;
		pthread_cond_signal(&r->nonfull);
		pthread_mutex_unlock(&r->mu);
	}
}

static void start_thread(struct cl_hasher *h)
{
	struct ring *r = cl_xcalloc(1, sizeof(*r));

	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->nonempty, NULL);
	pthread_cond_init(&r->nonfull, NULL);
	h->ring = r;
	h->tail = 0;
	h->fill = 0;
	if (pthread_create(&h->thread, NULL, hash_slots, h) == 0) {
		h->threaded = true;
		return;
	}
	pthread_cond_destroy(&r->nonfull);
	pthread_cond_destroy(&r->nonempty);
	pthread_mutex_destroy(&r->mu);
	free(r);
	h->ring = NULL;
}

/* Hand the filled slot to the thread; wait until the next one is free. */
static void commit(struct cl_hasher *h)
{
	struct ring *r = h->ring;

	pthread_mutex_lock(&r->mu);
	r->len[h->tail] = h->fill;
	r->count++;
	h->tail = (h->tail + 1) % SLOTS;
	pthread_cond_signal(&r->nonempty);
	while (r->count == SLOTS)
		pthread_cond_wait(&r->nonfull, &r->mu);
	pthread_mutex_unlock(&r->mu);
	h->fill = 0;
}

void cl_hasher_update(struct cl_hasher *h, const void *p, size_t n)
{
	const unsigned char *b = p;

	if (!h->threaded) {
		if (h->inline_bytes < CL_HASHER_INLINE_BYTES || (start_thread(h), !h->threaded)) {
			cl_sha256_update(h->ctx, b, n);
			h->inline_bytes += n;
			return;
		}
	}
	while (n > 0) {
		size_t k = SLOT_SIZE - h->fill;

		if (k > n)
			k = n;
		memcpy(h->ring->slot[h->tail] + h->fill, b, k);
		h->fill += k;
		b += k;
		n -= k;
		if (h->fill == SLOT_SIZE)
			commit(h);
	}
}

/* Stop the thread after it hashed every committed byte. */
static void stop_thread(struct cl_hasher *h)
{
	struct ring *r = h->ring;

	if (!h->threaded)
		return;
	if (h->fill > 0)
		commit(h);
	pthread_mutex_lock(&r->mu);
	r->eof = true;
	pthread_cond_signal(&r->nonempty);
	pthread_mutex_unlock(&r->mu);
	pthread_join(h->thread, NULL);
	pthread_cond_destroy(&r->nonfull);
	pthread_cond_destroy(&r->nonempty);
	pthread_mutex_destroy(&r->mu);
	free(r);
	h->ring = NULL;
	h->threaded = false;
}

void cl_hasher_final(struct cl_hasher *h, char hex[65])
{
	unsigned char md[32];

	stop_thread(h);
	cl_sha256_end(h->ctx, md);
	cl_hex32(md, hex);
}

void cl_hasher_reset(struct cl_hasher *h)
{
	stop_thread(h);
	cl_sha256_begin(h->ctx);
	h->inline_bytes = 0;
}

void cl_hasher_free(struct cl_hasher *h)
{
	if (!h)
		return;
	stop_thread(h);
	cl_sha256_free(h->ctx);
	free(h);
}
