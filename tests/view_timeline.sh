#!/bin/bash
# tests/view_timeline.sh FILE.json - load a --timeline file into a real
# viewer (speedscope 1.25, from the npm registry, kept in
# ~/.cache/probegen-tests) in a real browser (headless Chromium), served
# on loopback.  Prints the thread list speedscope shows and exits 0 when
# it shows the profile; exits 1 when it does not, 77 when it cannot run.
set -u
file=$(realpath "$1") || exit 1
command -v chromium > /dev/null || { echo "chromium is not installed"; exit 77; }
command -v npm > /dev/null || { echo "npm is not installed"; exit 77; }
cache=${XDG_CACHE_HOME:-$HOME/.cache}/probegen-tests/speedscope-1.25
if [ ! -f "$cache/node_modules/speedscope/dist/release/index.html" ]; then
	mkdir -p "$cache"
	(cd "$cache" && timeout 300 npm install --silent speedscope@1.25) > /dev/null 2>&1 ||
		{ echo "speedscope cannot be installed from npm"; exit 77; }
fi
dir=$(mktemp -d)
trap 'kill $server 2>/dev/null; rm -rf "$dir"' EXIT
cp -r "$cache/node_modules/speedscope/dist/release/." "$dir/" && cp "$file" "$dir/profile.json"
# A random port, served by this server only: where another process holds
# it (this server could not bind, and died), another port.
for try in 1 2 3 4 5; do
	port=$((20000 + RANDOM % 20000))
	(cd "$dir" && exec python3 -m http.server $port --bind 127.0.0.1) > /dev/null 2>&1 &
	server=$!
	for i in $(seq 50); do
		kill -0 $server 2>/dev/null || break
		(exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break
		sleep 0.1
	done
	sleep 0.3 # a server that could not bind has died by now
	kill -0 $server 2>/dev/null && break
done
kill -0 $server 2>/dev/null || { echo "no port to serve the viewer on"; exit 77; }
timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--user-data-dir="$dir/browser" --virtual-time-budget=15000 --dump-dom \
	"http://127.0.0.1:$port/index.html#profileURL=http%3A%2F%2F127.0.0.1%3A$port%2Fprofile.json" \
	> "$dir/dom.html" 2> /dev/null
grep -q '>Time Order<' "$dir/dom.html" || { echo "speedscope did not show the profile"; exit 1; }
grep -o '>[^<>]*(tid [0-9]*)<' "$dir/dom.html" | head -n 1 | tr -d '<>'
