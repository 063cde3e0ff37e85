#!/bin/sh
# tutorial.sh - runs every command of docs/tutorial.md, in order, as a reader
# would after `make`: each ```sh block, from the top of the source tree.
#
#   sh tests/tutorial.sh [BUILD]     BUILD: the build folder (build/release)
#
# Checks: every block exits 0; the outputs the tutorial names exist and are
# not empty; no tracked file changed and no untracked file appeared outside
# build/ (with git, when this is a git checkout).  The pictures cannot be
# looked at without a browser: tests/render-timeline.sh does that for one.
# Prints "ok   tutorial (N blocks)" or FAIL with the block and its output.
set -u
build=${1:-build/release}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
doc=docs/tutorial.md
work=$(mktemp -d "${TMPDIR:-/tmp}/fj-tutorial.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

# One file per ```sh block; continuation lines stay as they are (sh joins them).
awk -v dir="$work" '
    /^```sh[ \t]*$/ { n++; file = sprintf("%s/block%03d.sh", dir, n); inside = 1; next }
    /^```/ && inside { inside = 0; close(file); next }
    inside { print > file }
' "$doc"

snapshot() {
    if git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
        { git -C "$root" diff --stat HEAD -- . ':!build' 2>/dev/null
          git -C "$root" status --porcelain --untracked-files=all -- . ':!build' 2>/dev/null; } | sort
    fi
}
before=$(snapshot)

blocks=0
for block in "$work"/block*.sh; do
    [ -f "$block" ] || continue
    blocks=$((blocks + 1))
    # The tutorial says build/release; a sanitizer build runs its own binaries.
    sed -i "s#build/release/#$build/#g" "$block"
    if ! sh -e "$block" > "$work/out" 2>&1; then
        echo "FAIL tutorial: this block of $doc failed:"
        sed 's/^/     | /' "$block"
        sed 's/^/     /' "$work/out"
        exit 1
    fi
done
[ "$blocks" -gt 0 ] || { echo "FAIL tutorial: no \`\`\`sh block in $doc"; exit 1; }

for out in build/tutorial/fib.json build/tutorial/fib-depth.svg build/tutorial/fib-kind.svg \
           build/tutorial/cutoff-0.svg build/tutorial/cutoff-14.svg; do
    if [ ! -s "$out" ]; then
        echo "FAIL tutorial: $out, which the tutorial writes, is missing or empty"
        exit 1
    fi
done
grep -q '"partial":false' build/tutorial/fib.json || { echo "FAIL tutorial: build/tutorial/fib.json is not a complete trace"; exit 1; }

after=$(snapshot)
if [ "$before" != "$after" ]; then
    echo "FAIL tutorial: the commands changed files outside build/:"
    printf '%s\n' "$after" | sed 's/^/     /'
    exit 1
fi
echo "ok   tutorial ($blocks blocks of $doc)"
