#!/bin/sh
# The hash-partitioned schema (init --partitions 4) behaves the same: the
# re-upload proof and the concurrent loaders run against it unchanged.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
CL_INIT_ARGS="--partitions 4" sh "$here/test_load_reupload.sh"
CL_INIT_ARGS="--partitions 7" sh "$here/test_concurrency.sh"
CL_INIT_ARGS="--partitions 4" sh "$here/test_near_side.sh"
