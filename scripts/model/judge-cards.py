#!/usr/bin/env python3
"""An independent judge of the cards a real model's answers showed: it shares no code with the service's gate.

    judge-cards.py CARDS.json

CARDS.json is {"cards": [{"text": "...", "language": "en", "photo_words": ["beach", ...]}, ...]}. Each card is
judged by what a reader sees, with field tools of its own: CLD2's Python binding (pycld2) for the language, the
`hunspell` command with Debian's dictionaries for real words, and plain rules for the shape (8-15 words, one
question mark at the end, no list marker, markup or placeholder). It prints one JSON object: every card's faults,
and the share of cards that name a detail of their photo. Exit status 1 when any card has a fault.
"""
import json
import re
import subprocess
import sys

import pycld2

DICTIONARIES = {"en": "en_US", "es": "es_ES", "fr": "fr_FR", "de": "de_DE", "it": "it_IT", "pt": "pt_BR"}
WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*", re.UNICODE)


def misspelled(words, language):
    """The words hunspell does not know, in `language`'s dictionary."""
    if not words or language not in DICTIONARIES:
        return []
    result = subprocess.run(["hunspell", "-d", f"/usr/share/hunspell/{DICTIONARIES[language]}", "-l"],
                            input="\n".join(words), capture_output=True, text=True, timeout=30)
    if result.returncode != 0:
        sys.exit(f"judge: hunspell failed: {result.stderr.strip()}")
    return [line for line in result.stdout.split("\n") if line]


def faults(card):
    text, language = card["text"], card["language"]
    photo = {word.lower() for phrase in card.get("photo_words", []) for word in WORD.findall(phrase)}
    found = []
    words = text.split()
    if not 8 <= len(words) <= 15:
        found.append(f"{len(words)} words")
    if text.count("?") != 1 or not text.endswith("?"):
        found.append("not one question ending in a question mark")
    if re.match(r"^\s*(\d+[.)]|[-*•#>]|Q\d*[:.])", text) or re.search(r"[*_`#\[\]{}<>]", text):
        found.append("a list marker, markup or placeholder")
    reliable, _, details = pycld2.detect(text)
    detected = details[0][1]
    if detected not in (language, "un") and reliable:
        found.append(f"written in {detected}, not {language}")
    unknown = [word for word in misspelled(WORD.findall(text), language) if word.lower() not in photo]
    if unknown:
        found.append(f"unknown words {unknown}")
    return found


def names_detail(card):
    photo = {word.lower() for phrase in card.get("photo_words", []) for word in WORD.findall(phrase) if len(word) >= 3}
    said = {word.lower() for word in WORD.findall(card["text"])}
    # A plural or a possessive still names the thing: "dogs", "dog's".
    return any(word in said or word + "s" in said or word + "es" in said for word in photo)


def main():
    cards = json.load(open(sys.argv[1], encoding="utf-8"))["cards"]
    verdicts = [{"text": card["text"], "faults": faults(card), "names_detail": names_detail(card)} for card in cards]
    failed = [verdict for verdict in verdicts if verdict["faults"]]
    with_photo = [verdict for verdict, card in zip(verdicts, cards) if card.get("photo_words")]
    share = sum(verdict["names_detail"] for verdict in with_photo) / len(with_photo) if with_photo else None
    print(json.dumps({"cards": len(cards), "failed": failed, "names_detail_share": share}, ensure_ascii=False))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
