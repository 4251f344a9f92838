#!/bin/bash
# tests/speedscope.sh FILE [VIEW [SHOT.png]] - load a --timeline or
# --folded file into a real viewer (speedscope 1.25, from the npm
# registry, kept in ~/.cache/probegen-tests) in a real browser (headless
# Chromium), served on loopback, in VIEW (time-ordered, the default;
# left-heavy, the flame chart; sandwich, the table by function).  Prints
# what speedscope shows as text (time-ordered: the first thread; sandwich:
# each function's total, self and name, a line each) and, with SHOT.png,
# takes a 1280x720 screenshot of VIEW.  Exits 0 when it shows the
# profile, 1 when it does not, 77 when it cannot run.  SPEEDSCOPE_SECONDS
# bounds each browser run (90 by default): a file speedscope cannot read
# leaves the page open until then (an error dialog nobody closes).
set -u
file=$(realpath "$1") || exit 1
view=${2:-time-ordered}
shot=${3:-}
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
cp -r "$cache/node_modules/speedscope/dist/release/." "$dir/" && cp "$file" "$dir/profile"
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
url="http://127.0.0.1:$port/index.html#profileURL=http%3A%2F%2F127.0.0.1%3A$port%2Fprofile&view=$view"
browse() {
	timeout "${SPEEDSCOPE_SECONDS:-90}" chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$dir/browser$1" --virtual-time-budget=15000 "${@:3}" "$url$2" 2> /dev/null
}
browse 1 "" --dump-dom > "$dir/dom.html"
grep -q '>Time Order<' "$dir/dom.html" || { echo "speedscope did not show the profile"; exit 1; }
case $view in
time-ordered) grep -o '>[^<>]*(tid [0-9]*)<' "$dir/dom.html" | head -n 1 | tr -d '<>' ;;
# The table's cells: total, self, name, in threes after its head.
sandwich) grep -o '>[^<>]\+<' "$dir/dom.html" | tr -d '<>' | sed -n '/^Symbol Name$/,$p' | sed 1d |
	paste - - - | sed 's/&lt;/</g; s/&gt;/>/g; s/&amp;/\&/g' ;;
esac
if [ -n "$shot" ]; then
	# Titled by the file's name (a title hides a timeline's thread names
	# from the page's text, which is why the text is read untitled).
	browse 2 "&title=${file##*/}" --window-size=1280,720 --screenshot="$dir/shot.png" > /dev/null
	[ -s "$dir/shot.png" ] || { echo "no screenshot"; exit 1; }
	cp "$dir/shot.png" "$shot"
fi
