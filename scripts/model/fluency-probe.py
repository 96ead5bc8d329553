#!/usr/bin/env python3
"""What the generating model's own token probabilities say about each card (issue 71's lever), printed worst first.

For the first N English fixture photos, renders the request as the service sends it (`photo-prompts render`: system,
user and the llama.cpp grammar), asks llama-server for the reply with `logprobs`, splits the tokens into lines and
prints, per line, its worst token's log-probability, the mean, the worst token and the line, to be read by a person.
A probe for calibration, not a gate: docs/QUALITY.md says what it showed.

    python3 scripts/model/fluency-probe.py N [LLAMA_SERVER_URL]   (default http://127.0.0.1:18089)

Needs a debug build (.build/debug/photo-prompts) and llama-server running SmolLM2 at that URL.
"""
import json
import os
import subprocess
import sys
import tempfile
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def render(photo):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        json.dump(photo, file)
    text = subprocess.run([f"{ROOT}/.build/debug/photo-prompts", "render", "--photo", file.name], capture_output=True,
                          text=True, env={**os.environ, "PROMPTS_DIRECTORY": f"{ROOT}/prompts"}, check=True).stdout
    os.unlink(file.name)
    system = text.split("--- system ---\n")[1].split("\n--- user ---")[0].strip()
    user = text.split("--- user ---\n")[1].split("\n--- the template")[0].strip()
    grammar = text.split("(LLM_STRUCTURED_OUTPUT=grammar, llama.cpp) ---\n")[1].strip()
    return system, user, grammar


def main():
    count = int(sys.argv[1])
    url = (sys.argv[2] if len(sys.argv) > 2 else "http://127.0.0.1:18089") + "/v1/chat/completions"
    fixtures = [json.loads(line) for line in open(f"{ROOT}/prompts/fixtures/photos.jsonl")]
    lines = []
    for fixture in [f for f in fixtures if f["locale"].startswith("en")][:count]:
        system, user, grammar = render(fixture["photo"])
        # The service's parameters for the shipped template (prompts/photo-journal/settings.json).
        body = {"messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
                "max_tokens": 272, "temperature": 0.3, "dry_multiplier": 0.8, "grammar": grammar,
                "logprobs": True, "top_logprobs": 1}
        request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
        tokens = json.load(urllib.request.urlopen(request, timeout=120))["choices"][0]["logprobs"]["content"]
        line = []
        for token in tokens:
            line.append(token)
            if "\n" not in token["token"]:
                continue
            text = "".join(piece["token"] for piece in line).strip()
            scores = [piece["logprob"] for piece in line if piece["token"].strip()]
            if text:
                worst = min(line, key=lambda piece: piece["logprob"])
                lines.append((min(scores), sum(scores) / len(scores), worst["token"], text))
            line = []
    for worst, mean, token, text in sorted(lines):
        print(f"{worst:7.2f} {mean:6.2f} {token!r:14} | {text}")


if __name__ == "__main__":
    main()
