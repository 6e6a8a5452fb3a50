# The business application header (head.001 AppHdr) around a Fedwire or
# FedNow message names the hop's sender (Fr) and receiver (To) by their
# routing numbers (ClrSysMmbId/MmbId, ABA): a pacs.008 whose Document names
# no instructing agent is keyed by the AppHdr's sender, as decision 0027
# and 0044 say -- unless the AppHdr's MsgDefIdr names another message than
# the Document (the header may be another message's: refused no_key, never
# keyed by a stranger's sender); a version apart is only a note.  The files
# are the FedNow Service's published sample (FedNowIncoming envelope,
# testdata/iso20022/SOURCES.md) with its InstgAgt taken out.
. "$(dirname "$0")/lib.sh"
F="$TESTDATA/iso20022/corpus/pacs.008/fednow/sample-participant-to-fednow-message.xml"
# the sample without its transaction's InstgAgt/InstdAgt (lines of their own)
awk '/<InstgAgt>|<InstdAgt>/ { skip = 1 } !skip { print } /<\/InstgAgt>|<\/InstdAgt>/ { skip = 0 }' \
	"$F" >"$TMP/noagt.xml"
grep -q 'InstgAgt' "$TMP/noagt.xml" && fail "InstgAgt left in the file"

# keyed by the AppHdr's sender (Fr 111111111) and receiver (To 021150706)
run parse --format json "$TMP/noagt.xml"
expect_status 0
expect_stdout_has '"natural_key":"uetr|8a562c67-ca16-48ba-b074-65581be6f011|111111111"'
expect_stdout_has '"instructing_agent":"111111111","instructed_agent":"021150706"'
# the key the same as the Document's own InstgAgt gives it: a copy of the
# payment sent with InstgAgt filled is a duplicate, not a second payment
run parse --format json "$F"
expect_stdout_has '"natural_key":"uetr|8a562c67-ca16-48ba-b074-65581be6f011|111111111"'

# the AppHdr a version apart (pacs.008.001.09 over a .001.08): keyed, a note
sed 's|<MsgDefIdr>pacs.008.001.08</MsgDefIdr>|<MsgDefIdr>pacs.008.001.09</MsgDefIdr>|' \
	"$TMP/noagt.xml" >"$TMP/ver.xml"
run validate -v "$TMP/ver.xml"
expect_status 0
expect_stderr_has 'AppHdr MsgDefIdr "pacs.008.001.09" differs from the Document'"'"'s message pacs.008.001.08'

# the AppHdr names another message (pacs.009): its sender is not taken
sed 's|<MsgDefIdr>pacs.008.001.08</MsgDefIdr>|<MsgDefIdr>pacs.009.001.08</MsgDefIdr>|' \
	"$TMP/noagt.xml" >"$TMP/other.xml"
run validate "$TMP/other.xml"
expect_status 3
expect_stderr_has "error: /Document/FIToFICstmrCdtTrf/CdtTrfTxInf[1]: transaction cannot be identified (no natural key), so a copy of it could not be told from a new payment: the Document names no instructing agent, and the AppHdr's sender (Fr) is not taken: its MsgDefIdr \"pacs.009.001.08\" (line 41) names another message than this pacs.008.001.08, so the header may be another message's"
expect_stderr_has "hint: have the sender fill GrpHdr/InstgAgt, or send the Document with the AppHdr that names it"
# with the Document's own InstgAgt the header is not needed: valid
sed 's|<MsgDefIdr>pacs.008.001.08</MsgDefIdr>|<MsgDefIdr>pacs.009.001.08</MsgDefIdr>|' "$F" >"$TMP/other2.xml"
run validate "$TMP/other2.xml"
expect_status 0
echo ok
