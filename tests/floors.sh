#!/bin/sh
# floors.sh - docs/design.md's floors, held against the runtime's includes.
#
# design.md: "A file calls, and takes names from, only files on lower floors,
# and files on one floor do not call each other", except the fj_task fast path
# and its slow paths (task_inline.h, task.c) and the observers ("beside": called
# from every floor; they use only floors 0-5).  A runtime file reaches another
# one's functions and types through its header, so this checks every
# `#include "..."` of runtime/: the included file stands on a lower floor, or
# is the file's own header, or is an observer's, or the pair is the fast/slow
# one; an observer includes observers and floors 0-5 only.  Every runtime file
# must have its row.  Prints the verdict; exits 1 naming each breach.
here=$(cd "$(dirname "$0")/.." && pwd)
table=$(mktemp)
trap 'rm -f "$table"' EXIT
# "floor file" per line, from the table's rows: `runtime/x.{h,c}`, `y.c`, ...
awk -F'|' '/^\| *([0-9]+|beside) *\|/ {
    floor = $2; gsub(/ /, "", floor)
    n = split($3, cell, "`")
    for (i = 2; i <= n; i += 2) {
        name = cell[i]; sub(/^runtime\//, "", name)
        if (name ~ /\{h,c\}$/) { sub(/\{h,c\}$/, "", name); print floor, name "h"; print floor, name "c" }
        else print floor, name
    }
}' "$here/docs/design.md" >"$table"
status=0
floor_of() { awk -v f="$1" '$2 == f { print $1; exit }' "$table"; }
breach() { echo "FAIL floors: $1"; status=1; }
checked=0
for path in "$here"/runtime/*.c "$here"/runtime/*.h; do
    file=$(basename "$path")
    mine=$(floor_of "$file")
    if [ -z "$mine" ]; then
        breach "runtime/$file has no row in docs/design.md's floor table"
        continue
    fi
    for inc in $(sed -n 's/^#include "\([a-z_]*\.h\)".*/\1/p' "$path"); do
        [ "${inc%.h}" = "${file%.?}" ] && continue  # its own header
        theirs=$(floor_of "$inc")
        checked=$((checked + 1))
        if [ -z "$theirs" ]; then
            breach "runtime/$file includes $inc, which has no row in docs/design.md"
        elif [ "$mine" = beside ]; then
            [ "$theirs" = beside ] || [ "$theirs" -le 5 ] ||
                breach "observer runtime/$file includes $inc (floor $theirs): observers use floors 0-5"
        elif [ "$theirs" = beside ]; then
            :  # every floor reports to the observers
        elif [ "$file $inc" = "task.c task_inline.h" ] || [ "$file $inc" = "task_inline.h task.h" ]; then
            :  # the fast path and its slow paths
        elif [ "$theirs" -ge "$mine" ]; then
            breach "runtime/$file (floor $mine) includes $inc (floor $theirs)"
        fi
    done
done
[ "$status" = 0 ] && echo "floors: $checked includes of runtime/ follow docs/design.md's table"
exit $status
