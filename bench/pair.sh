#!/bin/sh
# pair.sh - the ratio of two benchmark cells taken round by round (bench/run.sh).
#
#   sh bench/pair.sh A_FILE B_FILE  ->  "<median> <min> <max> <rounds>"
#
# Each file has one line per round, in the order the rounds ran: that round's
# median time in seconds, or "fail".  The cells took turns, so round i of A and
# round i of B ran seconds apart; their quotient cancels what the machine did
# in that minute (on this shared VM whole minutes run 1.5-2x slower for every
# system), where the quotient of the two cells' medians does not.  Rounds where
# either failed are left out; no round in common reads "0 0 0 0".
paste -d ' ' "$1" "$2" | awk '
    $1 != "fail" && $2 != "fail" && $2 + 0 > 0 { r[++n] = $1 / $2 }
    END {
        if (n == 0) { print "0 0 0 0"; exit }
        for (i = 2; i <= n; i++)
            for (j = i; j > 1 && r[j - 1] > r[j]; j--) { x = r[j]; r[j] = r[j - 1]; r[j - 1] = x }
        med = n % 2 ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2
        printf "%.4f %.4f %.4f %d\n", med, r[1], r[n], n
    }'
