#!/usr/bin/env python3
"""What the generating model's own token probabilities say about each card (issue 71's lever), printed worst first.

For the first N English fixture photos, renders the request as the service sends it (`photo-prompts render`: system,
user and the llama.cpp grammar), asks llama-server for the reply with `logprobs`, splits the tokens into lines and
prints, per line, its worst token's log-probability, the mean, the worst token and the line, to be read by a person.
As the service's fluency rule does (PromptValidator), the tokens that start inside the line's opener (a line of
prompts/openers/en.txt, else its first word) are skipped: the grammar forced them. The floor (GateRules) was
calibrated on this output: docs/QUALITY.md says what it showed.

    python3 scripts/model/fluency-probe.py N [LLAMA_SERVER_URL] [--save FILE]   (default http://127.0.0.1:18089)

With --save, each reply is also written to FILE as a JSON line (the photo, the text, and each token's text, bytes
and log-probability), as Tests/PhotoPromptsTests/Fixtures/fluency-replies.jsonl holds them.

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


OPENERS = [line.strip() for line in open(f"{ROOT}/prompts/openers/en.txt") if line.strip() and not line.startswith("#")]


def opening(text):
    """The length of what the grammar forced at the start of `text`: its longest opener, else its first word."""
    openers = [opener for opener in OPENERS if text.startswith(opener + " ")]
    return len(max(openers, key=len)) if openers else max(text.find(" "), 1)


def main():
    arguments = sys.argv[1:]
    save = None
    if "--save" in arguments:
        save = open(arguments.pop(arguments.index("--save") + 1), "w")
        arguments.remove("--save")
    count = int(arguments[0])
    url = (arguments[1] if len(arguments) > 1 else "http://127.0.0.1:18089") + "/v1/chat/completions"
    fixtures = [json.loads(line) for line in open(f"{ROOT}/prompts/fixtures/photos.jsonl")]
    lines = []
    for fixture in [f for f in fixtures if f["locale"].startswith("en")][:count]:
        system, user, grammar = render(fixture["photo"])
        # The service's parameters for the shipped template (prompts/photo-journal/settings.json).
        body = {"messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
                "max_tokens": 272, "temperature": 0.3, "dry_multiplier": 0.8, "grammar": grammar,
                "logprobs": True, "top_logprobs": 1}
        request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
        choice = json.load(urllib.request.urlopen(request, timeout=120))["choices"][0]
        tokens = choice["logprobs"]["content"]
        if save:
            pieces = [{"token": t["token"], "bytes": t.get("bytes"), "logprob": t["logprob"]} for t in tokens]
            save.write(json.dumps({"photo": fixture["photo"], "text": choice["message"]["content"], "tokens": pieces},
                                  ensure_ascii=False) + "\n")
        line = []
        for token in tokens:
            line.append(token)
            if "\n" not in token["token"]:
                continue
            text = "".join(piece["token"] for piece in line)
            skip, offset, judged = opening(text), 0, []
            for piece in line:
                if offset >= skip and piece["token"].strip():
                    judged.append(piece)
                offset += len(piece["token"])
            if text.strip() and judged:
                worst = min(judged, key=lambda piece: piece["logprob"])
                scores = [piece["logprob"] for piece in judged]
                lines.append((worst["logprob"], sum(scores) / len(scores), worst["token"], text.strip()))
                print(f"# {lines[-1][0]:7.2f} | {text.strip()}", file=sys.stderr, flush=True)
            line = []
    for worst, mean, token, text in sorted(lines):
        print(f"{worst:7.2f} {mean:6.2f} {token!r:14} | {text}")


if __name__ == "__main__":
    main()
