# The NACHA parser's in-file key proof groups batches by the originator as
# the key has it (company id trimmed on both sides): one entry under "ABC1234   "
# and "   ABC1234" is one key twice (else validate calls the file valid
# while load retries it 8 times as a race and exits 5 with no audit row).
. "$(dirname "$0")/lib.sh"
F="$TESTDATA/keys/company-justified-two-ways.ach"
for cmd in validate parse; do
	run $cmd "$F"
	expect_status 3
	expect_stderr_has 'company-justified-two-ways.ach:6: error: batch 2 (header at line 6) reuses trace numbers 121042880009901-121042880009902 of the batch with header at line 2 for company "ABC1234"'
done
