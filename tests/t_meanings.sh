# tests/t_meanings.sh - arguments as the program means them (issue
# "Arguments as the program means them"): strings and bytes with their
# lengths, said by @length or inferred from the names, socket addresses,
# enum values by name; in every consumer, from the .d and from a binary.

# What meanings.c passes, as --trace prints it (time and pid cut off).
meanings_want() {
	local ab128 ab
	ab128=$(printf 'ab%.0s' $(seq 128))
	cat <<-W
	http:req__start path="/index.html" path_len=11
	http:header name="Host" name_len=4 value="example.org" value_len=11
	http:body bytes= bytes_len=0
	http:body bytes=ab bytes_len=1
	http:body bytes=$ab128 bytes_len=128
	http:body bytes=$ab128... (129 bytes) bytes_len=129
	http:body bytes=$ab128... (1200 bytes) bytes_len=1200
	http:body bytes=$ab128... (1099511627776 bytes) bytes_len=1099511627776
	http:body bytes=0x0(unreadable) bytes_len=5
	http:chunk data=(not readable: length -5) data_len=-5
	http:sized sized="plain" sized_len=99
	http:req__done status=200 bytes=1200
	http:accepted fd=3 peer=127.0.0.1:8080
	http:accepted fd=4 peer=[::1]:443
	http:accepted fd=5 peer=/run/meanings.sock
	http:accepted fd=6 peer=(null)
	btc:block__connected hash=1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100 height=800000
	btc:inbound__message peer=7 size=4 msg=76657273
	btc:flush mode=PERIODIC coins=100
	btc:flush mode=9 coins=0
	W
}

# Text: every value as passed, no byte past a length (the program's
# buffers go on with SECRET and with 'S'); JSON: the same values, valid.
# From the -G object and from a --header-only build, whose declaration
# notes carry the tags (no .d given to the tracer).
t_meanings_trace_text_and_json() {
	need_trace
	local mode
	for mode in g ho; do
		meanings_program $mode
		timeout 60 "$PROBEGEN" --trace -c './mprog 1' > out 2> err || { cat err; fail "--trace ($mode)"; }
		firings out > got
		meanings_want | diff -u - got || fail "--trace's values ($mode)"
		timeout 60 "$PROBEGEN" --trace --json -c './mprog 1' > json 2> err || { cat err; fail "--trace --json ($mode)"; }
		# 5353 is "SS" in hex; only the values are searched, as a pid
		# or a time may hold those digits.
		! firings out | grep -q 'SECRET\|5353' || fail "text ($mode) shows bytes past a length"
		python3 - json <<-'P' || fail "JSON ($mode)"
		import json, sys
		ev = [json.loads(l) for l in open(sys.argv[1])]
		a = {}
		for e in ev:
		    a.setdefault(e["probe"], []).append(e["args"])
		assert a["http:header"][0] == {"name": "Host", "name_len": 4, "value": "example.org", "value_len": 11}, a["http:header"]
		body = [b["bytes"] for b in a["http:body"]]
		assert body[:3] == ["", "ab", "ab" * 128], body[:3]
		# A cut is said apart from the value, with what the program
		# passed: the value holds only the program's bytes.
		assert body[3] == body[4] == body[5] == "ab" * 128, body[3]
		cuts = [e.get("cut") for e in ev if e["probe"] == "http:body"]
		assert cuts[:7] == [None, None, None, {"bytes": 129}, {"bytes": 1200}, {"bytes": 1 << 40}, None], cuts
		assert body[6] == {"address": "0x0", "unreadable": True}, body[6]
		assert [p["peer"] for p in a["http:accepted"]] == ["127.0.0.1:8080", "[::1]:443", "/run/meanings.sock", None]
		assert a["btc:block__connected"][0]["hash"] == bytes(range(32))[::-1].hex()
		assert a["btc:inbound__message"][0]["msg"] == b"vers".hex()
		assert [f["mode"] for f in a["btc:flush"]] == ["PERIODIC", 9]
		values = json.dumps([e["args"] for e in ev])
		assert "SECRET" not in values and "5353" not in values, "bytes past a length"
		P
	done
	ok
}

# --by names a pair's calls by a string with its length: --summary's
# breakdown shows the path exactly, never the bytes after it.
t_meanings_by_names_calls() {
	need_trace
	meanings_program
	timeout 60 "$PROBEGEN" --trace --summary --by 'http:req__start:path' -c './mprog 5' > out 2> err ||
		{ cat err; fail "--trace --summary --by"; }
	grep -q '/index.html' out || { cat out; fail "the call is not named by its path"; }
	! grep -q SECRET out || { cat out; fail "--summary shows bytes past the length"; }
	ok
}

# The generated bpftrace script prints the same values within
# bpftrace's limits: str() and buf() read by the length, the enum by
# name; what it cannot do (reverse bytes, addresses) its comments say.
t_meanings_bpftrace_script() {
	need_bpftrace
	meanings_program
	"$PROBEGEN" --bpftrace -s "$ROOT/tests/src/meanings.d" -o m.bt || fail "--bpftrace"
	expect_grep 'str(arg2, arg3)' m.bt
	expect_grep 'buf(arg2, arg1)' m.bt
	expect_grep 'hash: bpftrace cannot reverse bytes' m.bt
	expect_grep 'peer: a socket address: bpftrace prints its pointer' m.bt
	"$PROBEGEN" --bpftrace mprog -o fromprog.bt || fail "--bpftrace BINARY"
	# The same blocks (in the binary's order of sites).
	diff <(sed '1,/^ \*\/$/d' m.bt | sort) <(sed '1,/^ \*\/$/d' fromprog.bt | sort) ||
		fail "the scripts from the .d and from the binary differ"
	timeout 60 bpftrace m.bt ./mprog -c './mprog 1' > out 2> err
	grep -v '^Attaching' out | grep . > got
	timeout 60 "$PROBEGEN" --trace -c './mprog 1' > trace 2> err || fail "--trace"
	firings trace > want
	# Where bpftrace reads what --trace does, the lines are the same.
	for p in 'http:req__start' 'http:header' 'btc:flush mode=PERIODIC' 'btc:inbound__message'; do
		w=$(grep -m1 "^$p" want); g=$(grep -m1 "^$p" got)
		[ "$p" = 'btc:inbound__message' ] && w=${w/msg=76657273/msg=vers}
		expect_eq "$g" "$w" "bpftrace's $p"
	done
	grep -q '^btc:flush mode=(unnamed) coins=0$' got || { cat got; fail "an unnamed enum value"; }
	! grep -q SECRET got || fail "bpftrace's script shows bytes past a length"
	ok
}

# Tags that are wrong are errors at their file, line and column, and
# nothing is written.
t_meanings_tag_errors() {
	cat > bad.d <<-'D'
	provider p {
		/**
		 * @length nosuch 4
		 * @length key keylen
		 * @length key keylen
		 */
		probe a(char *key, int keylen, int n);
		/* @length n 4
		 * @enum key A=1
		 * @enum n A
		 * @enum n A=x
		 * @length key 0
		 * @length key n more
		 */
		probe b(char *key, int n);
		// @length key n
		// @length n key
		probe c(char *key, char *n);
		/* @length p 99999999999999999999
		 * @enum m A=1 A=2
		 * @enum n A=1 B=1
		 * @enum c C=010 D=1
		 * @enum u X=256
		 * @enum s Y=-129
		 */
		probe d(char *p, int m, int n, int c, unsigned char u, signed char s);
	};
	D
	"$PROBEGEN" -h -s bad.d -o bad.h 2> err && fail "bad tags accepted"
	[ ! -e bad.h ] || fail "bad.h written"
	grep -o '^bad.d:[0-9]*:[0-9]*: error: .*' err > got
	cat > want <<-'W'
	bad.d:3:12: error: '@length' names 'nosuch', which is no argument of probe 'a'
	bad.d:5:12: error: '@length' said twice of 'key'
	bad.d:8:12: error: '@length': 'n' is not a pointer
	bad.d:9:10: error: '@enum': 'key' is not an integer
	bad.d:10:12: error: '@enum' takes ARG NAME=VALUE..., not 'A'
	bad.d:11:14: error: '@enum': 'x' is not a number (decimal, or hex with 0x; no leading zero)
	bad.d:12:16: error: '@length': 0 bytes is not a length (1 to 2147483647)
	bad.d:13:18: error: '@length' takes ARG LENARG, ARG N [reversed] or ARG none
	bad.d:16:16: error: '@length': the length 'n' is not an integer argument
	bad.d:17:14: error: '@length': the length 'key' is not an integer argument
	bad.d:19:14: error: '@length': 99999999999999999999 is not a length (1 to 2147483647, in decimal or 0x hex, no leading zero)
	bad.d:20:16: error: '@enum': the name 'A' is given twice
	bad.d:21:18: error: '@enum': the value 1 is given twice (A and B)
	bad.d:22:14: error: '@enum': '010' is not a number (decimal, or hex with 0x; no leading zero)
	bad.d:23:14: error: '@enum': 256 is outside 'u' (8 bits, unsigned)
	bad.d:24:14: error: '@enum': -129 is outside 's' (8 bits, signed)
	W
	diff -u want got || fail "the errors"
	ok
}

# A tag after text on a one-line doc comment, as Doxygen allows, is a
# tag (it was read as prose, and the hash then printed as an empty C
# string); a mention of a tag in prose stays prose.
t_meanings_tag_after_text() {
	cat > t.d <<-'D'
	provider p {
		/** A block. @length hash 32 reversed */
		probe b(const void *hash);
		/** a mention of @length in prose. */
		probe c(const void *hash);
	};
	D
	expect "$PROBEGEN" --bpftrace -s t.d -o t.bt
	grep -qF 'printf("p:b hash=%r\n", buf(arg0, 32));' t.bt || { cat t.bt; fail "the tag after text was not taken"; }
	grep -qF 'printf("p:c hash=0x%lx\n", arg0);' t.bt || { cat t.bt; fail "prose was taken as a tag"; }
	expect "$PROBEGEN" --docs -s t.d -o t.md
	grep -qx 'A block\.' t.md || { cat t.md; fail "--docs shows the tag as text"; }
	grep -q '32 bytes in hex, last byte first (said)' t.md || fail "--docs does not say what the tag means"
	grep -qx 'a mention of @length in prose\.' t.md || fail "--docs lost the prose"
	ok
}

# --docs and --rust show what the tags mean, never the tags; --list and
# --check of the binary say what was said and what was inferred.
t_meanings_docs_and_list() {
	local d=$ROOT/tests/src/meanings.d
	"$PROBEGEN" --docs -s "$d" -o m.md || fail "--docs"
	"$PROBEGEN" --rust -s "$d" -o m.rs || fail "--rust"
	! grep -h '@length\|@enum' m.md <(grep '^\s*///' m.rs) | grep -v 'mention of @length' ||
		fail "raw tags in --docs or --rust's documentation"
	expect_grep '^- `value`: a string of value_len bytes (by its name)$' m.md
	expect_grep '^- `hash`: 32 bytes in hex, last byte first (said)$' m.md
	expect_grep '^- `mode`: named values NONE=0, IF_NEEDED=1, PERIODIC=2, ALWAYS=3 (said)$' m.md
	expect_grep '^- `peer`: a socket address (by its type)$' m.md
	expect_grep '| `str(arg2, arg3)` |' m.md
	expect_grep '/// - `msg`: size bytes in hex (said)' m.rs
	! grep -q '`sized`:' m.md || fail "@length none is not honoured"
	meanings_program
	"$PROBEGEN" --list mprog > list || fail "--list"
	grep -Eq '^ +arg0  path: char const \* +8 bytes; a string of path_len bytes \(by its name\)$' list ||
		{ cat list; fail "--list's inferred length"; }
	grep -Eq 'arg2  msg: unsigned char const \* +8 bytes; size bytes in hex \(said\)$' list ||
		{ cat list; fail "--list's said length"; }
	# --check: the binary's recorded tags against the .d's.
	"$PROBEGEN" --check "$ROOT/tests/src/meanings.d" mprog > check 2>&1
	! grep -q 'records the tags' check || { cat check; fail "--check: tags differ from the same .d"; }
	sed 's/NONE=0/NADA=0/' "$ROOT/tests/src/meanings.d" > changed.d
	"$PROBEGEN" --check changed.d mprog > check 2>&1
	grep -q "btc:flush: warning: the binary records the tags '@enum mode NONE=0 IF_NEEDED=1 PERIODIC=2 ALWAYS=3', changed.d says '@enum mode NADA=0" check ||
		{ cat check; fail "--check: tags that differ"; }
	"$PROBEGEN" --list --json mprog | python3 -m json.tool > /dev/null || fail "--list --json"
	"$PROBEGEN" --list --json mprog | grep -q '"meaning": "a socket address (by its type)"' ||
		fail "--list --json's meaning"
	ok
}

# --show reads members two pointers deep at the firing (the program
# overwrites them right after), enums by name, strings, char arrays,
# socket addresses; in text and JSON.
t_meanings_show_members() {
	need_trace
	members_program
	local show=(--show 'quic:send:conn->local.cid_set.master_id' --show 'quic:*:conn->peer->name'
		    --show 'quic:send:conn->state' --show 'quic:send:conn->peer->addr')
	timeout 60 "$PROBEGEN" --trace -n quic:send "${show[@]}" -c './members 3' > out 2> err ||
		{ cat err; fail "--trace --show"; }
	firings out | sed 's/conn=0x[0-9a-f]*/conn=ADDR/' > got
	cat > want <<-'W'
	quic:send conn=ADDR n=0 conn->local.cid_set.master_id=1000 conn->peer->name="peer-0" conn->state=OPEN conn->peer->addr=10.0.0.2:4433
	quic:send conn=ADDR n=1 conn->local.cid_set.master_id=1001 conn->peer->name="peer-1" conn->state=CLOSING conn->peer->addr=10.0.0.2:4433
	quic:send conn=ADDR n=2 conn->local.cid_set.master_id=1002 conn->peer->name="peer-2" conn->state=OPEN conn->peer->addr=10.0.0.2:4433
	W
	diff -u want got || fail "--show's values"
	timeout 60 "$PROBEGEN" --trace --json -n quic:send --show 'quic:send:conn->local.cid_set.label' \
		--show 'quic:send:conn->small' --show 'quic:send:conn->state' -c './members 2' > json 2> err ||
		{ cat err; fail "--trace --json --show"; }
	python3 - json <<-'P' || fail "--show in JSON"
	import json, sys
	ev = [json.loads(l)["args"] for l in open(sys.argv[1])]
	assert [e["conn->local.cid_set.label"] for e in ev] == ["abc", "abc"], ev
	assert [e["conn->small"] for e in ev] == [0, -1], ev
	assert [e["conn->state"] for e in ev] == ["OPEN", "CLOSING"], ev
	P
	# A member pointer with a sibling length member (host, host_len;
	# token, token_len): exactly that many bytes, as text or hex; cut
	# at a slot less its length (120 bytes), with the length said; a
	# negative length said.  The program then sets the lengths to 2 and
	# 1: a read after the firing would show "ex" and "de".
	timeout 60 "$PROBEGEN" --trace -n quic:send --show 'quic:send:conn->peer->host' \
		--show 'quic:send:conn->peer->token' -c './members 3' > out 2> err ||
		{ cat err; fail "--show with a length member"; }
	firings out | sed 's/conn=0x[0-9a-f]*/conn=ADDR/' > got
	ab=$(printf 'ab%.0s' $(seq 120))
	cat > want <<-W
	quic:send conn=ADDR n=0 conn->peer->host="example.org" conn->peer->token=deadbeef
	quic:send conn=ADDR n=1 conn->peer->host="example.org" conn->peer->token=$ab... (200 bytes)
	quic:send conn=ADDR n=2 conn->peer->host=(not readable: length -3) conn->peer->token=deadbeef
	W
	diff -u want got || fail "members with their lengths"
	timeout 60 "$PROBEGEN" --trace --json -n quic:send --show 'quic:send:conn->peer->host' \
		-c './members 1' > json 2> err || { cat err; fail "--json, a length member"; }
	python3 -c 'import json,sys; e=json.loads(open(sys.argv[1]).readline())["args"]; assert e["conn->peer->host"] == "example.org", e' json ||
		fail "a length member in JSON"
	ok
}

# A member that does not exist names the struct and its nearest
# members; an expression on a non-pointer, a struct as a value, and a
# binary without DWARF say what is wrong; each exits 1.
t_meanings_show_errors() {
	need_trace
	members_program
	local expr want
	while IFS='|' read -r expr want; do
		timeout 30 "$PROBEGEN" --trace --show "quic:send:$expr" -c './members 1' > out 2> err
		[ $? = 1 ] || { cat err; fail "--show $expr: exit status"; }
		grep -qF -- "$want" err || { cat err; fail "--show $expr: the message"; }
	done <<-'E'
	conn->locl.port|quic:send: 'conn->locl.port': struct st_conn has no member 'locl' (its members: local, id, peer, state, small)
	conn->local.cid_set.master|struct cid has no member 'master' (its members: master_id, label)
	n->x|'n' is not a pointer to a struct: write ARG->MEMBER
	conn->local|a struct or union: show one of its members (its members: cid_set, port)
	nosuch->x|probe quic:send has no argument 'nosuch'
	E
	strip -g members
	timeout 30 "$PROBEGEN" --trace --show 'quic:send:conn->id' -c './members 1' > out 2> err
	grep -q "has no DWARF: build it with -g, or install its debug file" err || { cat err; fail "no DWARF"; }
	"$PROBEGEN" --trace --show 'quic:send:conn' -c true 2> err
	[ $? = 2 ] && grep -q -- "--show takes PROVIDER:PROBE:ARG->MEMBER" err || { cat err; fail "--show's usage"; }
	ok
}

# The DWARF in a separate debug file: by .gnu_debuglink beside the
# binary, and by build-id under /usr/lib/debug (as Debian's -dbgsym
# packages install it).
t_meanings_show_debug_file() {
	need_trace
	members_program
	objcopy --only-keep-debug members members.debug && strip -g members &&
		objcopy --add-gnu-debuglink=members.debug members || fail "split the debug file"
	timeout 30 "$PROBEGEN" --trace --show 'quic:send:conn->peer->name' -c './members 1' > out 2> err ||
		{ cat err; fail "by .gnu_debuglink"; }
	grep -q 'conn->peer->name="peer-0"' out || { cat out; fail "by .gnu_debuglink: the value"; }
	# By build-id: no link, the file where the build-id names it.
	members_program
	local id dir
	id=$(readelf -n members | sed -n 's/.*Build ID: //p')
	[ -n "$id" ] || skip "no build-id"
	dir=/usr/lib/debug/.build-id/${id:0:2}
	[ -e "$dir/${id:2}.debug" ] && fail "$dir/${id:2}.debug is there already"
	mkdir -p "$dir" && objcopy --only-keep-debug members "$dir/${id:2}.debug" && strip -g members ||
		fail "install the debug file"
	timeout 30 "$PROBEGEN" --trace --show 'quic:send:conn->local.cid_set.master_id' -c './members 1' > out 2> err
	rm -f "$dir/${id:2}.debug"
	grep -q 'master_id=1000' out || { cat out err; fail "by build-id"; }
	ok
}

# --by takes member expressions too: --summary names the calls of a
# pair by one, --metrics labels firings by one (its label name: each
# byte a label name cannot hold made '_').
t_meanings_by_members() {
	need_trace
	members_program
	timeout 60 "$PROBEGEN" --trace --summary --by 'quic:request__start:conn->peer->name' -c './members 3' > out 2> err ||
		{ cat err; fail "--summary --by EXPR"; }
	for n in peer-0 peer-1 peer-2; do
		grep -q "$n" out || { cat out; fail "--summary: no call named $n"; }
	done
	! grep -q gone out || fail "--summary read a member after the firing"
	need curl
	metrics_start --by 'quic:send:conn->state' ./members
	./members 4
	curl -s "http://127.0.0.1:$PORT/metrics" > page
	metrics_stop
	grep -q 'conn__state="OPEN"' page && grep -q 'conn__state="CLOSING"' page ||
		{ grep probegen_probe page | head; fail "--metrics' labels"; }
	ok
}

# --pair matches by a member expression too, read in the kernel at each
# probe's firing: members.c ends each request on a copy of its
# connection, so a pair matched by the pointer never matches while one
# matched by conn->id does, in --summary (timed in the kernel) and in
# --timeline (matched in user space).
t_meanings_pair_by_member() {
	need_trace
	members_program
	timeout 60 "$PROBEGEN" --trace --summary --pair 'quic:request__start,quic:request__done,conn->id' \
		--pair 'quic:request__start,quic:request__done,conn' -c './members 3' > out 2> err ||
		{ cat err; fail "--summary --pair ...,EXPR"; }
	grep -q '^request (quic:request__start, quic:request__done, by conn->id): 3 timed$' out ||
		{ cat out; fail "the pair by conn->id: not 3 timed"; }
	grep -q '^request (quic:request__start, quic:request__done, by conn): 0 timed, 3 ends without a start' out ||
		{ cat out; fail "the pair by the pointer matched: the control is wrong"; }
	# The timeline draws each pair's calls: the pair by names' 3 and,
	# matched by conn->id, 3 more; matched by the pointer, none more.
	for by in conn-\>id conn; do
		timeout 60 "$PROBEGEN" --trace --timeline "tl.$by.json" -n 'quic:request*' \
			--pair "quic:request__start,quic:request__done,$by" -c './members 3' > out 2> err ||
			{ cat err; fail "--timeline --pair ...,$by"; }
	done
	python3 - <<-'PY' || fail "--timeline: the pair by conn->id"
	import json
	def ended(path):
	    ev = json.load(open(path))
	    ev = ev["traceEvents"] if isinstance(ev, dict) else ev
	    return len([e for e in ev if e.get("ph") == "X" and
	                not e["args"].get("end", {}).get("unfinished")])
	assert ended("tl.conn->id.json") == 6, ended("tl.conn->id.json")
	assert ended("tl.conn.json") == 3, ended("tl.conn.json")
	PY
	# A member that is no number, one that does not exist.
	! "$PROBEGEN" --trace --pair 'quic:request__start,quic:request__done,conn->peer->name' -c './members 1' 2> err &&
		grep -q "'conn->peer->name' is not a number or a pointer" err || { cat err; fail "a string member"; }
	! "$PROBEGEN" --trace --pair 'quic:request__start,quic:request__done,conn->nope' -c './members 1' 2> err &&
		grep -q "struct st_conn has no member 'nope'" err || { cat err; fail "no such member"; }
	ok
}

# --show on DWARF whose struct contains itself through an anonymous
# member (a hostile binary: tests/dwarf_self_member.py rewrites one
# reference) says the member is not there; the search recursed until
# the stack overflowed.  A member that is there still reads.
t_meanings_show_self_containing_struct() {
	need_trace
	printf 'provider cyc { probe go(struct outer *o); };\n' > cyc.d
	cat > cyc.c <<-'C'
	#include "cyc.h"
	struct outer { int a; struct { int b; int c; }; };
	int main(void) { struct outer o = { 1, { 2, 3 } }; CYC_GO(&o); return o.a - 1; }
	C
	expect "$PROBEGEN" -h -s cyc.d -o cyc.h
	expect "$PROBEGEN" -G -s cyc.d -o cyc_probes.o
	expect gcc -gdwarf-4 -O0 cyc.c cyc_probes.o -o cyc
	expect python3 "$ROOT/tests/dwarf_self_member.py" cyc
	readelf --debug-dump=info cyc | grep -A1 'DW_TAG_member' | grep -q "DW_AT_type *: <0x$(readelf --debug-dump=info cyc | grep -B1 'DW_AT_name.*: outer$' | sed -n 's/^ <1><\([0-9a-f]*\)>.*/\1/p')>" ||
		fail "the struct was not made to contain itself"
	timeout 60 "$PROBEGEN" --trace --show 'cyc:go:o->zzz' -c ./cyc > out 2> err
	st=$?
	[ $st = 1 ] || { cat err; fail "--show of a missing member: exit status $st, expected 1"; }
	grep -q "struct outer has no member 'zzz'" err || { cat err; fail "the message"; }
	timeout 60 "$PROBEGEN" --trace --show 'cyc:go:o->a' -c ./cyc > out 2> err || { cat err; fail "--show o->a"; }
	grep -q 'o->a=1$' out || { cat out; fail "o->a was not read"; }
	ok
}

# A code pointer (issue "Real servers, round two", item 2): an argument
# of a function pointer's type, or a plain pointer a .d tags
# `@function ARG`, prints as the function it points to ("+0xN" past its
# start), in text, JSON and --by's names; the bpftrace script reads it
# with usym(); --docs and --list say what it means; a pointer that is
# no function's prints as its address.
code_program() {
	cat > cb.d <<-'D'
	provider cb {
		probe job(void (*fn)(void *), void *arg);
		/**
		 * A callback, passed as BIND passes its jobs'.
		 * @function handler
		 */
		probe called(const void *handler, int n);
	};
	D
	cat > cb.c <<-'C'
	#include <unistd.h>
	#include "cb.h"
	int data_word = 7;
	__attribute__((noinline)) static void on_ready(void *p) { (void)p; }
	__attribute__((noinline)) void on_done(void *p) { (void)p; }
	int main(int argc, char **argv)
	{
		(void)argv;
		CB_JOB(on_ready, (void *)0);
		CB_JOB(on_done, &data_word);
		CB_CALLED((const void *)on_done, 1);
		CB_CALLED((const char *)(void *)on_done + 4, 2);
		CB_CALLED(&data_word, 3);
		CB_CALLED((const void *)0, 4);
		if (argc > 1)
			sleep(1); /* bpftrace names a process's symbols while it runs */
		return 0;
	}
	C
	"$PROBEGEN" -h -s cb.d -o cb.h || fail "-h"
	"$PROBEGEN" -G -s cb.d -o cb_probes.o || fail "-G"
	cc -O0 -g -o cbprog cb.c cb_probes.o || fail "cc"
}

t_meanings_code_pointers() {
	need_trace
	code_program
	timeout 60 "$PROBEGEN" --trace -c ./cbprog > out 2> err || { cat err; fail "--trace"; }
	firings out | sed 's/0x[0-9a-f]\{6,\}/ADDR/g' > got
	cat > want <<-'W'
	cb:job fn=on_ready arg=0x0
	cb:job fn=on_done arg=ADDR
	cb:called handler=on_done n=1
	cb:called handler=on_done+0x4 n=2
	cb:called handler=ADDR n=3
	cb:called handler=0x0 n=4
	W
	diff -u want got || fail "--trace's code pointers"
	timeout 60 "$PROBEGEN" --trace --json -c ./cbprog > json 2> err || { cat err; fail "--trace --json"; }
	python3 - json <<-'P' || fail "JSON's code pointers"
	import json, sys
	ev = [json.loads(l) for l in open(sys.argv[1])]
	h = [e["args"]["handler"] for e in ev if e["probe"] == "cb:called"]
	assert h[:2] == ["on_done", "on_done+0x4"], h
	assert h[2].startswith("0x") and h[3] == "0x0", h
	assert [e["args"]["fn"] for e in ev if e["probe"] == "cb:job"] == ["on_ready", "on_done"]
	P
	# --by names the calls of a pair by it, as --summary breaks one down.
	timeout 60 "$PROBEGEN" --trace --summary --pair cb:job,cb:called --by cb:job:fn -c ./cbprog > sum 2> err ||
		{ cat err; fail "--summary --by"; }
	expect_grep 'on_ready' sum
	# What it means, in --docs and --list; the tag recorded in the binary.
	"$PROBEGEN" --docs -s cb.d -o cb.md || fail "--docs"
	expect_grep '^- `fn`: a function, shown by its name (by its type)$' cb.md
	expect_grep '^- `handler`: a function, shown by its name (said)$' cb.md
	"$PROBEGEN" --list cbprog > list || fail "--list"
	grep -Eq 'handler: void const \* +8 bytes; a function, shown by its name \(said\)$' list ||
		{ cat list; fail "--list's meaning"; }
	"$PROBEGEN" --bpftrace -s cb.d -o cb.bt || fail "--bpftrace"
	expect_grep 'usym(arg0)' cb.bt
	if command -v bpftrace > /dev/null; then
		timeout 60 bpftrace cb.bt ./cbprog -c './cbprog 1' > bt 2> err
		grep -q 'fn=on_ready' bt || { cat bt err; fail "bpftrace's usym"; }
	else
		skip_part "bpftrace's run: no bpftrace"
	fi
	# A tag on what is no pointer is an error at its place.
	printf 'provider t {\n\t/** @function n */\n\tprobe p(int n);\n};\n' > bad.d
	! "$PROBEGEN" -h -s bad.d -o bad.h 2> err || fail "@function on an int"
	expect_grep "bad.d:2:.*'@function': 'n' is not a pointer" err
	[ ! -e bad.h ] || fail "a header written for a bad tag"
	ok
}

# --where and --expect compare an enum argument with its names, as
# --trace prints it (issue "Tracepoints as a tested API", item 2): in
# the kernel, as the number the name stands for; a name it does not
# have is an error with the names it has.
t_meanings_where_by_name() {
	need_trace
	meanings_program
	timeout 60 "$PROBEGEN" --trace --where 'btc:flush: mode == PERIODIC' -n 'btc:flush' -c './mprog 1' > out 2> err ||
		{ cat err; fail "--where mode == PERIODIC"; }
	expect_eq "$(firings out)" "btc:flush mode=PERIODIC coins=100" "the firings --where passed"
	timeout 60 "$PROBEGEN" --trace --summary --expect 'btc:flush{1}: mode != NONE && mode != PERIODIC' -c './mprog 1' > out 2> err ||
		{ cat err; fail "--expect by name"; }
	expect_grep "met: 1 of 2 firings passed" err
	# A constant first, as the man page allows: the name on the left.
	timeout 60 "$PROBEGEN" --trace --where 'btc:flush: PERIODIC == mode' -n 'btc:flush' -c './mprog 1' > out 2> err ||
		{ cat err; fail "--where PERIODIC == mode"; }
	expect_eq "$(firings out)" "btc:flush mode=PERIODIC coins=100" "the firings PERIODIC == mode passed"
	timeout 60 "$PROBEGEN" --trace --summary --expect 'btc:flush{1}: NONE != mode && PERIODIC != mode' -c './mprog 1' > out 2> err ||
		{ cat err; fail "--expect by name, the name first"; }
	expect_grep "met: 1 of 2 firings passed" err
	! timeout 60 "$PROBEGEN" --trace --where 'btc:flush: mode == PERIODC' -c './mprog 1' > out 2> err ||
		fail "an unknown name taken"
	expect_grep "no value of 'mode' is named so (NONE, IF_NEEDED, PERIODIC, ALWAYS)" err
	expect_grep '^                     \^~~~~~~$' err
	! timeout 60 "$PROBEGEN" --trace --where 'btc:flush: coins == PERIODIC' -c './mprog 1' > out 2> err ||
		fail "a name for a plain integer taken"
	expect_grep "'coins' has no named values (@enum): compare it with a number" err
	ok
}

# -s FILE.d beside a binary whose sites are plain sys/sdt.h: --list
# takes its names and types (it ignored -s), and a .d that names a
# probe otherwise (D's inbound__message for the site's inbound_message)
# is said in --list and --trace (--trace traced arg0..arg3 in silence).
t_meanings_d_names_nothing() {
	cat > node.d <<-'D'
	provider net {
		probe inbound__message(int peer, const char *type);
	};
	D
	sed 's/inbound__message/inbound_message/' node.d > good.d
	printf '#include <sys/sdt.h>\nint main(void) { STAP_PROBE2(net, inbound_message, 7, "ping"); return 0; }\n' > n.c
	expect gcc -O2 n.c -o n
	"$PROBEGEN" --list -s good.d n > out 2> err || { cat err; fail "--list -s"; }
	expect_grep '^    arg1  type: char const \*' out
	[ ! -s err ] || { cat err; fail "--list -s of a .d that names the probe said something"; }
	"$PROBEGEN" --list --json -s good.d n > out.json 2> err || fail "--list --json -s"
	expect_grep '"name": "peer", "type": "int"' out.json
	"$PROBEGEN" --list -s node.d n > out 2> err || fail "--list -s node.d"
	expect_grep "warning: 'n': probe 'net:inbound_message' is not declared in node.d: its arguments are shown as arg0, arg1, ... (node.d declares 'inbound__message': the binary's sites name it otherwise)" err
	if can_trace; then
		timeout 60 "$PROBEGEN" --trace -s node.d -c ./n > out 2> err || { cat err; fail "--trace -s node.d"; }
		expect_grep "probe 'net:inbound_message' is not declared in node.d" err
		expect_grep 'net:inbound_message arg0=7' out
		timeout 60 "$PROBEGEN" --trace -s good.d -c ./n > out 2> err || { cat err; fail "--trace -s good.d"; }
		expect_grep 'net:inbound_message peer=7 type="ping"' out
		! grep -q 'not declared' err || fail "--trace -s good.d said a probe is not declared"
	else
		skip_part "--trace needs root, a build with --trace and a kernel with BTF"
	fi
	ok
}

# An untagged void * that points into a function (BIND's job callbacks,
# in a .d its users do not edit) is shown with its function beside the
# number: in text "cb=0x... (on_ready)", in JSON apart ("functions"), so
# that the number stays comparable; --by labels it the same way (it was
# in decimal).  A pointer to data, NULL and a heap pointer stay numbers.
t_meanings_untagged_code_pointers() {
	need_trace
	printf 'provider u {\n\tprobe job(void *cb, void *data);\n\tprobe done(void *cb);\n};\n' > u.d
	expect "$PROBEGEN" -h -s u.d -o u.h
	expect "$PROBEGEN" -G -s u.d -o u.o
	cat > u.c <<-'C'
	#include <stdlib.h>
	#include "u.h"
	int data_word = 7;
	__attribute__((noinline)) void on_ready(void *p) { (void)p; }
	int main(void)
	{
		void *heap = malloc(16);
		U_JOB((void *)on_ready, &data_word);
		U_DONE((void *)on_ready);
		U_JOB(heap, (void *)0);
		U_DONE(heap);
		free(heap);
		return 0;
	}
	C
	expect cc -O0 -g -o uprog u.c u.o
	timeout 60 "$PROBEGEN" --trace -c ./uprog > out 2> err || { cat err; fail "--trace"; }
	firings out | sed 's/0x[0-9a-f]\{6,\}/ADDR/g' > got
	cat > want <<-'W'
	u:job cb=ADDR (on_ready) data=ADDR
	u:done cb=ADDR (on_ready)
	u:job cb=ADDR data=0x0
	u:done cb=ADDR
	W
	diff -u want got || fail "--trace's untagged code pointers"
	cb=$(nm uprog | sed -n 's/^0*\([0-9a-f]*\) T on_ready$/\1/p')
	grep -q "u:job cb=0x[0-9a-f]*${cb: -3} (on_ready)" out || { cat out; fail "the number is not on_ready's address (0x...$cb)"; }
	timeout 60 "$PROBEGEN" --trace --json -c ./uprog > json 2> err || { cat err; fail "--trace --json"; }
	python3 - json <<-'P' || fail "JSON's untagged code pointers"
	import json, sys
	ev = [json.loads(l) for l in open(sys.argv[1])]
	assert ev[0]["args"]["cb"].startswith("0x") and ev[0]["functions"] == {"cb": "on_ready"}, ev[0]
	assert "functions" not in ev[2] and "functions" not in ev[3], ev[2:]
	P
	timeout 60 "$PROBEGEN" --trace --summary --pair u:job,u:done --by u:job:cb -c ./uprog > sum 2> err ||
		{ cat err; fail "--summary --by"; }
	grep -q '0x[0-9a-f]* (on_ready)' sum || { cat sum; fail "--by's label of a code pointer"; }
	ok
}

# A program that writes its sites with sys/sdt.h alone, as Bitcoin Core's
# TRACE6 does, with no .d in its build (issue "Tracepoints as a tested
# API", item 5): --trace -s node.d reads its arguments by the .d's
# declarations and tags, and --check -s node.d checks its sites against
# the .d (a size that differs is named with its site).
t_meanings_sites_without_probegen() {
	need_trace
	cat > node.d <<-'D'
	provider net {
		/**
		 * A block arrived.
		 * @length hash 32 reversed
		 */
		probe block(const unsigned char *hash, int height);
		probe peer(long long id, int score);
	};
	D
	cat > node.c <<-'C'
	#include <sys/sdt.h>
	int main(void)
	{
		unsigned char hash[32];
		long long id = 7;
		long score = 5000000000;
		int i;

		for (i = 0; i < 32; i++)
			hash[i] = (unsigned char)i;
		STAP_PROBE2(net, block, hash, 800000);
		STAP_PROBE2(net, peer, id, score);
		return 0;
	}
	C
	cc -O0 -o node node.c || fail "cc"
	timeout 60 "$PROBEGEN" --trace -s node.d -n net:block -c ./node > out 2> err || { cat err; fail "--trace -s"; }
	expect_eq "$(firings out)" "net:block hash=1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100 height=800000" \
		"the .d's declaration and tag read on a plain sys/sdt.h site"
	"$PROBEGEN" --check -s node.d node > check 2>&1
	grep -q "net:peer.*argument 1.*8 bytes.*4 bytes" check || { cat check; fail "--check -s: the site's size"; }
	ok
}

# --where and --expect compare a socket address with its printed form
# (the program passes 127.0.0.1:8080, [::1]:443, /run/meanings.sock and
# NULL): in the kernel and in probegen's judge, == != and ~ for any port,
# any address or a path's start; a NULL one passes neither == nor !=.
t_meanings_where_sockaddr() {
	need_trace
	meanings_program
	local f want
	while IFS='#' read -r f want; do
		timeout 60 "$PROBEGEN" --trace --where "http:accepted: $f" -n http:accepted -c './mprog 1' > out 2> err ||
			{ cat err; fail "--where $f"; }
		expect_eq "$(firings out | sed 's/.* fd=\([0-9]*\) .*/\1/' | tr '\n' ' ')" "$want" "--where $f"
	done <<-'W'
	peer == "127.0.0.1:8080"#3 
	peer == "127.0.0.1:8081"#
	peer != "127.0.0.1:8080"#4 5 
	peer ~ "127.0.0.1:*"#3 
	peer ~ "*:443"#4 
	peer == "[::1]:443"#4 
	peer ~ "[::1]:*"#4 
	peer == "/run/meanings.sock"#5 
	peer ~ "/run/*"#5 
	peer == "/run/meanings"#
	peer ~ "*:8080" || peer == "/run/meanings.sock"#3 5 
	W
	timeout 60 "$PROBEGEN" --trace --summary -n http:accepted --expect 'http:accepted{1}: peer == "[::1]:443"' \
		--expect 'http:accepted{2}: peer ~ "*:8080" || peer ~ "/run/*"' \
		--expect 'http:accepted{2}: peer != "/run/meanings.sock"' -c './mprog 1' > out 2> err ||
		{ cat err; fail "--expect on addresses"; }
	expect_grep "'http:accepted{2}: peer != \"/run/meanings.sock\"': met: 2 of 4" err
	! timeout 60 "$PROBEGEN" --trace --where 'http:accepted: peer == "127.0.0.1"' -c './mprog 1' > out 2> err ||
		fail "an address without its port taken"
	expect_grep 'a socket address compares with "127.0.0.1:8080", "\[::1\]:8080", "/path" or "@name"' err
	ok
}

# --where and --expect compare bytes with 0x hex as --trace prints them
# (issue "Tracepoints as a tested API", item 2): a hash shown last byte
# first (@length hash 32 reversed) with the hash as Bitcoin shows it, a
# prefix with ~ 0xHEX*, bytes with their length argument; in the kernel.
t_meanings_where_bytes() {
	need_trace
	meanings_program
	local hash=1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100 f
	for f in "hash == 0x$hash" "hash ~ 0x1f1e1d*" "hash != 0x${hash%00}01"; do
		timeout 60 "$PROBEGEN" --trace --where "btc:block__connected: $f" -n btc:block__connected -c './mprog 1' > out 2> err ||
			{ cat err; fail "--where $f"; }
		expect_eq "$(firings out | cut -d' ' -f1)" "btc:block__connected" "--where $f passes the block"
	done
	for f in "hash == 0x${hash%00}01" "hash ~ 0x0001*" "hash != 0x$hash"; do
		timeout 60 "$PROBEGEN" --trace --where "btc:block__connected: $f" -n btc:block__connected -c './mprog 1' > out 2> err ||
			{ cat err; fail "--where $f"; }
		expect_eq "$(firings out)" "" "--where $f rejects the block"
	done
	timeout 60 "$PROBEGEN" --trace --summary --expect 'btc:inbound__message{1}: msg == 0x76657273' \
		--expect 'btc:inbound__message{0}: msg ~ 0x7665*' -c './mprog 1' > out 2> err
	expect_grep "'btc:inbound__message{1}: msg == 0x76657273': met: 1 of 1" err
	expect_grep "'btc:inbound__message{0}: msg ~ 0x7665\*': not met: 1 of 1" err
	! timeout 60 "$PROBEGEN" --trace --where 'btc:block__connected: hash == 0x1f1' -c './mprog 1' > out 2> err ||
		fail "an odd number of digits taken"
	expect_grep "an odd number of hex digits: a byte is two" err
	! timeout 60 "$PROBEGEN" --trace --where 'btc:block__connected: hash < 0x1f1e' -c './mprog 1' > out 2> err ||
		fail "< on bytes taken"
	expect_grep "bytes compare with == or != 0xHEX, or ~ 0xHEX\*" err
	ok
}
