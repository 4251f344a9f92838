#!/bin/sh
# bench/gen.sh N [mixed|plain] - a provider file of N probes with 0 to 12
# arguments of mixed types, spread over providers of at most 1,000
# probes.  "plain" avoids `unsigned long long`, the one type here that
# SystemTap's dtrace cannot parse (it then falls back to a line parser).
types="int|char *|unsigned long long|short|const char *|void *|long|unsigned char|uint32_t|int64_t|size_t|unsigned int"
[ "${2:-mixed}" = plain ] && types=$(echo "$types" | sed 's/unsigned long long/uint64_t/')
awk -v n="$1" -v types="$types" 'BEGIN {
	split(types, t, "|")
	for (i = 0; i < n; i++) {
		if (i % 1000 == 0) {
			if (i) print "};"
			printf "provider bench%d {\n", i / 1000
		}
		printf "\tprobe p%d__event(", i
		k = i % 13
		for (a = 0; a < k; a++)
			printf "%s%s a%d", a ? ", " : "", t[(i + a) % 12 + 1], a
		print ");"
	}
	print "};"
}'
