#!/usr/bin/env bash
# Fails when the binary holds an instruction that a portable x86-64 build must not: any on an AVX-512 register
# (%zmm, %k mask registers used by EVEX code) or an AMX tile (%tmm). A CPU without those instructions, or one
# that reports them but does not let a process use them, dies with SIGILL on the first one it runs.
set -euo pipefail
BINARY="$1"
command -v objdump >/dev/null || { echo "audit-instructions: objdump (binutils) is missing" >&2; exit 1; }
found=$(objdump -d --no-show-raw-insn "$BINARY" | grep -E '%zmm[0-9]|%tmm[0-9]|\btile(zero|loadd|stored|release|cfg)' | head -5 || true)
if [ -n "$found" ]; then
    echo "audit-instructions: $BINARY uses AVX-512 or AMX instructions, for example:" >&2
    echo "$found" >&2
    exit 1
fi
echo "audit-instructions: $BINARY uses no AVX-512 or AMX instruction"
