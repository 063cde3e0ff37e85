#!/bin/sh
# render-timeline.sh BUILD_DIR - the timeline picture test (make test-render).
#
# Traces a real run (examples/fib on 2 workers), draws it with tools/fj_timeline,
# and has a real browser (headless Chromium) decode the SVG and count what it
# painted: the picture must have many colours and a good share of non-white
# pixels, not merely exist.  Also leaves a PNG screenshot next to the SVG for a
# human to look at: BUILD_DIR/render/timeline.png.
#
# Chromium is a Debian package (CI installs it from .ci/packages.d/trace).  If
# it is missing the test FAILS, saying so; set FJ_SKIP_RENDER=1 to skip it on
# a machine where you cannot install it (the rest of `make test` still runs).
set -u
build=${1:?usage: render-timeline.sh BUILD_DIR}
out="$build/render"
mkdir -p "$out" || exit 1
browser=""
for b in chromium chromium-browser google-chrome; do
    command -v "$b" >/dev/null 2>&1 && { browser=$b; break; }
done
if [ -z "$browser" ]; then
    if [ "${FJ_SKIP_RENDER:-0}" = 1 ]; then
        echo "skip render-timeline: no chromium (FJ_SKIP_RENDER=1)"
        exit 0
    fi
    echo "FAIL render-timeline: chromium not found; install it (apt-get install chromium)"
    echo "     or set FJ_SKIP_RENDER=1 to skip this test on this machine"
    exit 1
fi

fail() { echo "FAIL render-timeline: $*"; exit 1; }

FJ_TRACE="$out/trace.json" "$build/examples/fib" --workers 2 20 >"$out/fib.log" 2>&1 || fail "fib failed: $(cat "$out/fib.log")"
"$build/tools/fj_timeline" --title "fib(20) on 2 workers" -o "$out/timeline.svg" "$out/trace.json" || fail "fj_timeline failed"

# The page decodes the SVG as an image, paints it on a canvas and counts the
# colours and the non-white share of the lanes (not the legend, which an empty
# trace would still draw).
# A data: URL keeps the canvas untainted, so getImageData is allowed.
{
    printf '<!DOCTYPE html><html><body><pre id="verdict">RENDER pending</pre><script>\n'
    printf 'const img = new Image();\n'
    printf 'img.onload = () => {\n'
    printf '  const c = document.createElement("canvas"); c.width = img.naturalWidth; c.height = img.naturalHeight;\n'
    printf '  const g = c.getContext("2d"); g.drawImage(img, 0, 0);\n'
    printf '  /* the lanes only (fj_timeline: labels left of x=150, lanes from y=44, 100 px of axis and legend below) */\n'
    printf '  const w = c.width - 166, h = c.height - 154;\n'
    printf '  const px = g.getImageData(150, 44, w, h).data; const colours = new Set(); let ink = 0;\n'
    printf '  for (let i = 0; i < px.length; i += 4) { const k = (px[i] << 16) | (px[i+1] << 8) | px[i+2];\n'
    printf '    colours.add(k); if (k !== 0xffffff && px[i+3] > 0) ink++; }\n'
    printf '  document.getElementById("verdict").textContent = "RENDER width=" + c.width + " height=" + c.height +\n'
    printf '    " colours=" + colours.size + " ink_permille=" + Math.round(1000 * ink / (w * h));\n'
    printf '};\n'
    printf 'img.onerror = () => { document.getElementById("verdict").textContent = "RENDER error"; };\n'
    printf 'img.src = "data:image/svg+xml;base64,%s";\n' "$(base64 -w0 "$out/timeline.svg")"
    printf '</script></body></html>\n'
} >"$out/check.html"

profile="$out/chromium-profile"
rm -rf "$profile"
flags="--headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
--disable-component-update --disable-sync --user-data-dir=$profile"
# shellcheck disable=SC2086
timeout 120 "$browser" $flags --virtual-time-budget=10000 --dump-dom "file://$(cd "$out" && pwd)/check.html" \
    >"$out/dom.html" 2>"$out/chromium.log" || fail "chromium exited with $? (see $out/chromium.log)"
# shellcheck disable=SC2086
timeout 120 "$browser" $flags --hide-scrollbars --window-size=1200,520 --screenshot="$out/timeline.png" \
    "file://$(cd "$out" && pwd)/timeline.svg" >>"$out/chromium.log" 2>&1 || fail "chromium screenshot failed"
rm -rf "$profile"

verdict=$(grep -o 'RENDER[^<]*' "$out/dom.html" | head -1)
echo "render-timeline: $verdict"
set -- $(echo "$verdict" | sed 's/[a-z_]*=//g')
[ "${1:-}" = RENDER ] && [ $# -eq 5 ] || fail "the page did not report a rendering: '$verdict'"
width=$2 height=$3 colours=$4 ink=$5
[ "$width" -ge 400 ] && [ "$height" -ge 100 ] || fail "picture is ${width}x${height}"
[ "$colours" -ge 8 ] || fail "only $colours colours: the timeline is (nearly) empty"
[ "$ink" -ge 200 ] || fail "only $ink per mille of the lanes is not white"
[ -s "$out/timeline.png" ] || fail "no screenshot"
echo "ok   render-timeline ($out/timeline.svg, $out/timeline.png)"
