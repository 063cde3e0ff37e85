#!/bin/sh
# summarise.sh - one benchmark cell's figures from its runs (bench/run.sh).
#
#   sh bench/summarise.sh FILE   ->  "<median> <min> <max> <runs> <verified>"
#
# FILE has a line "<seconds> <ok>" per timed run (ok: 1 verified, 0 wrong) and
# a line "fail" for each round whose process gave no result.  The median of an
# even count is the mean of the middle two.  verified is 1 only if every run
# was verified and no round failed; a cell with no runs reads "0 0 0 0 0".
awk '$1 == "fail" { bad = 1; next }
     NF >= 2 { t[++n] = $1 + 0; if ($2 != 1) bad = 1 }
     END {
         if (n == 0) { print "0 0 0 0 0"; exit }
         for (i = 2; i <= n; i++)
             for (j = i; j > 1 && t[j - 1] > t[j]; j--) { x = t[j]; t[j] = t[j - 1]; t[j - 1] = x }
         med = n % 2 ? t[(n + 1) / 2] : (t[n / 2] + t[n / 2 + 1]) / 2
         printf "%.6f %.6f %.6f %d %d\n", med, t[1], t[n], n, bad ? 0 : 1
     }' "$1"
