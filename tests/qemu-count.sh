#!/bin/sh
# bench/qemu-count.awk, the instruction counter of bench/instructions.sh on
# another architecture, on hand-written qemu logs: a block counts its
# instruction lines (not the byte lines that continue a long x86-64
# instruction), a block retranslated to a fixed count (cflags) counts that,
# counting runs per thread between the toggles, and a retranslation at the
# same pc replaces the size.  Prints one line per case; exits 1 on a mismatch.
here=$(cd "$(dirname "$0")/.." && pwd)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
check() {  # name, expected count; the log on stdin
    cat >"$log"
    got=$(awk -f "$here/bench/qemu-count.awk" "$log" 2>/dev/null)
    if [ "$got" = "$2" ]; then
        echo "ok   qemu-count $1"
    else
        echo "FAIL qemu-count $1: expected '$2', got '$got'"
        status=1
    fi
}
# aarch64: a toggle block (2 instructions before the toggle, 6 from it on), a
# 3-instruction body run twice, the toggle block again (off after its 2nd):
# 6 + 2 * 3 + 2; the body's runs before and after are not counted.
aarch64_blocks='IN: root
0x00401000:  d503201f  nop
0x00401004:  d503201f  nop
0x00401008:  93cc0d8c  ror      x12, x12, #3
0x0040100c:  93cc358c  ror      x12, x12, #13
0x00401010:  93ccc58c  ror      x12, x12, #51
0x00401014:  93ccf58c  ror      x12, x12, #61
0x00401018:  aa0a014a  orr      x10, x10, x10
0x0040101c:  d65f03c0  ret

IN: body
0x00402000:  d503201f  nop
0x00402004:  d503201f  nop
0x00402008:  d65f03c0  ret
'
check aarch64-toggled 14 <<EOF2
$aarch64_blocks
Trace 0: 0x7f0000000100 [0000000001009331/0000000000402000/00000001/00000200] body
Trace 0: 0x7f0000000200 [0000000001009331/0000000000401000/00000001/00000200] root
Trace 0: 0x7f0000000100 [0000000001009331/0000000000402000/00000001/00000200] body
Trace 0: 0x7f0000000100 [0000000001009331/0000000000402000/00000001/00000200] body
Trace 0: 0x7f0000000200 [0000000001009331/0000000000401000/00000001/00000200] root
Trace 0: 0x7f0000000100 [0000000001009331/0000000000402000/00000001/00000200] body
EOF2
# Thread 1 runs the body while thread 0 counts: not counted; a block
# retranslated for one instruction (cflags count 1) counts 1: 6 + 1 + 3 + 2.
check per-thread-and-fixed-count 12 <<EOF2
$aarch64_blocks
Trace 0: 0x7f0000000200 [0000000001009331/0000000000401000/00000001/00000200] root
Trace 1: 0x7f0000000100 [0000000001009331/0000000000402000/00000001/00000200] body
Trace 0: 0x7f0000000300 [0000000001009331/0000000000402004/00000001/00000201] body
Trace 0: 0x7f0000000100 [0000000001009331/0000000000402000/00000001/00000200] body
Trace 1: 0x7f0000000100 [0000000001009331/0000000000402000/00000001/00000200] body
Trace 0: 0x7f0000000200 [0000000001009331/0000000000401000/00000001/00000200] root
EOF2
# x86-64: the toggle is rolq $3, %rdi; a 10-byte movabs goes on in a line of
# bytes, which is not an instruction; the body retranslated shorter counts 1:
# 3 + 2 * 3 + 1 + 0.
check x86-64-long-instruction 10 <<'EOF2'
IN: root
0x4000001000:  48 c1 c7 03              rolq     $3, %rdi
0x4000001004:  48 c1 c7 0d              rolq     $0xd, %rdi
0x4000001008:  c3                       retq

IN: body
0x4000002000:  49 b8 1d dd 6c 4f 91 f4  movabsq  $0x2545f4914f6cdd1d, %r8
0x4000002008:  45 25
0x400000200a:  48 89 f8                 movq     %rdi, %rax
0x400000200d:  c3                       retq

Trace 0: 0x7f0000000200 [0000000000000000/0000004000001000/1040c0b3/00000200] root
Trace 0: 0x7f0000000100 [0000000000000000/0000004000002000/1040c0b3/00000200] body
Trace 0: 0x7f0000000100 [0000000000000000/0000004000002000/1040c0b3/00000200] body
----------------
IN: body
0x4000002000:  49 b8 1d dd 6c 4f 91 f4  movabsq  $0x2545f4914f6cdd1d, %r8
0x4000002008:  45 25

Trace 0: 0x7f0000000400 [0000000000000000/0000004000002000/1040c0b3/00000200] body
Trace 0: 0x7f0000000200 [0000000000000000/0000004000001000/1040c0b3/00000200] root
EOF2
check nothing-toggled 0 <<EOF2
$aarch64_blocks
Trace 0: 0x7f0000000100 [0000000001009331/0000000000402000/00000001/00000200] body
EOF2
exit $status
