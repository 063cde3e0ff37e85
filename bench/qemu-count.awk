# qemu-count.awk - instructions a program executed between its callgrind
# toggles, read from the log of qemu-user run with `-d in_asm,exec,nochain`
# (bench/instructions.sh, when it counts for another architecture).
#
# Why a log and not valgrind: valgrind does not run a foreign architecture's
# binary, and Debian's qemu-user has no instruction-counting plugin.  The log
# has two kinds of record, in the order things happened:
#   IN: <symbol>             a translated block: one line per guest
#   0x<pc>:  <hex>  <insn>   instruction (on x86-64 an instruction of more
#                            than 8 bytes goes on with a line of bytes alone),
#                            then an empty line;
#   Trace <cpu>: <host> [<x>/<pc>/<flags>/<cflags>] <symbol>
#                            one execution of the block at <pc> by thread
#                            <cpu> (nochain: every execution is logged).
# A block's size is the number of its instruction lines, unless its cflags
# carry an instruction count (the low 9 bits: a block qemu retranslated to
# run one instruction alone), which then is its size.  Translations come
# before their executions, and a retranslation at the same pc replaces the
# size recorded for it.
#
# The toggle: fine.h's FINE_COUNT_TOGGLE is valgrind's client request, a
# sequence that does nothing outside valgrind and begins with
# `ror x12, x12, #3` on aarch64, `rolq $3, %rdi` on x86-64 (the latter lets
# the method be checked against callgrind on the same binaries).  A block holding it switches counting for the thread that runs
# it, from that instruction on: so each thread counts exactly what callgrind
# with --collect-atstart=no would.  Output: the total over all threads.
function hexval(s,   i, v) {
    v = 0; s = tolower(s); sub(/^0x/, "", s)
    for (i = 1; i <= length(s); i++)
        v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
    return v
}
function bytes_only(   i) {
    for (i = 2; i <= NF; i++) if ($i !~ /^[0-9a-f][0-9a-f]$/) return 0
    return 1
}
function pckey(s) { s = tolower(s); sub(/^0x/, "", s); sub(/^0+/, "", s); return s }
/^IN:/ { inblock = 1; n = 0; pc = ""; mark = -1; next }
inblock && /^0x[0-9a-f]+:/ {
    if (bytes_only()) next  # the rest of a long x86 instruction's bytes
    if (pc == "") pc = pckey(substr($1, 1, length($1) - 1))
    if ($0 ~ /ror +x12, x12, #3$/ || $0 ~ /rolq +[$]3, %rdi$/) mark = n
    n++
    next
}
inblock && /^$/ { if (pc != "") { size[pc] = n; toggle_at[pc] = mark } inblock = 0; next }
/^Trace / {
    cpu = $2; split($4, field, "/")
    pc = pckey(field[2]); cflags = field[4]; sub(/\]$/, "", cflags)
    fixed = hexval(cflags) % 512
    n = fixed > 0 ? fixed : size[pc]
    mark = fixed > 0 ? -1 : toggle_at[pc]
    if (n == "") { unknown++; next }
    if (mark >= 0) {
        if (on[cpu]) { total += mark; on[cpu] = 0 } else { total += n - mark; on[cpu] = 1 }
    } else if (on[cpu])
        total += n
}
END {
    if (unknown) printf "qemu-count: %d executions of blocks never seen translated\n", unknown > "/dev/stderr"
    print total + 0
}
