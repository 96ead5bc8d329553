#!/usr/bin/env python3
"""Variety as a user meets it: one user, a sequence of sessions on different photos, some refreshed, judged by a
rule of its own (not the service's).

Two cards are near-duplicates when their word sets (lower-cased runs of letters) overlap by 0.6 or more (Jaccard),
the yardstick of the issue that asked for the service's rule; exact repeats are equal after case and punctuation.
Two cards share a frame when the same overlap holds with each card's own photo's words (labels, place) taken out
(issue 52's measure). A card names its photo when it holds one of those words (or, for a photo with people, a word
of PEOPLE). In English, a card's angle is the first of ANGLES whose word starts one of its words: this script's own
table, not the service's prompts/angles/.
With `--judge URL` (a llama-server with Gemma 3 270M, `make serve-model MODEL=gemma`), each card the model wrote is
also judged a sentence or broken by scripts/model/fluency_judge.py, and the frames, the cards naming the photo and
the angles count fluent cards only (issue 71).
Run against a service already serving (`--base-url`), or imported by eval-real.py.

    python3 scripts/model/variety.py --base-url http://127.0.0.1:8080 --locale en [--judge http://127.0.0.1:8091]
"""
import argparse
import itertools
import json
import re
import sys
import urllib.error
import urllib.request

# 24 photos no fixture holds: a month of journaling, one a day.
PHOTOS = [
    {"labels": ["harbor", "boats"], "location": {"name": "Boston", "country": "United States"}},
    {"labels": ["coffee", "book"], "location": {"name": "Lisbon", "country": "Portugal"}},
    {"labels": ["snow", "mountain"], "location": {"name": "Zermatt", "country": "Switzerland"}},
    {"labels": ["birthday cake", "candles"], "peopleCount": 5},
    {"labels": ["dog", "park"], "location": {"name": "Hyde Park", "locality": "London"}},
    {"labels": ["train", "window"], "location": {"name": "Kyoto", "country": "Japan"}},
    {"labels": ["market", "fruit"], "location": {"name": "Marrakesh", "country": "Morocco"}},
    {"labels": ["guitar", "campfire"], "peopleCount": 3},
    {"labels": ["wedding", "dance"], "peopleCount": 40},
    {"labels": ["garden", "tomatoes"]},
    {"labels": ["museum", "painting"], "location": {"name": "Madrid", "country": "Spain"}},
    {"labels": ["bicycle", "bridge"], "location": {"name": "Amsterdam", "country": "Netherlands"}},
    {"labels": ["rain", "umbrella"], "location": {"name": "Seattle", "country": "United States"}},
    {"labels": ["graduation", "cap"], "peopleCount": 2},
    {"labels": ["lake", "canoe"], "location": {"name": "Lake Louise", "country": "Canada"}},
    {"labels": ["pizza", "kitchen"], "peopleCount": 4},
    {"labels": ["desert", "camel"], "location": {"name": "Wadi Rum", "country": "Jordan"}},
    {"labels": ["concert", "stage"], "location": {"name": "Berlin", "country": "Germany"}},
    {"labels": ["baby", "blanket"], "peopleCount": 1},
    {"labels": ["temple", "lanterns"], "location": {"name": "Chiang Mai", "country": "Thailand"}},
    {"labels": ["beach", "sunset"], "location": {"name": "Praia da Rocha", "country": "Portugal"}},
    {"labels": ["forest", "mushrooms"]},
    {"labels": ["library", "desk"], "location": {"name": "Oxford", "country": "United Kingdom"}},
    {"labels": ["fireworks", "river"], "location": {"name": "Budapest", "country": "Hungary"}},
]

NEAR = 0.6

PEOPLE = {"who", "friend", "friends", "family", "people", "together", "everyone", "someone", "guests", "crowd"}

# This script's own English angle words, by angle, in the order they are tried: a word starting with one shows it.
ANGLES = [
    ("gratitude", ["grateful", "thankful", "thank", "appreciat"]),
    ("after", ["after", "afterward", "later"]),
    ("before", ["before", "earlier"]),
    ("senses", ["smell", "sound", "hear", "taste", "touch", "scent", "noise", "music", "colo"]),
    ("people", ["who", "friend", "family", "together", "share", "celebrat"]),
    ("detail", ["detail", "notice", "small", "little"]),
    ("future", ["future", "remember", "forget", "someday"]),
    ("meaning", ["mean", "matter", "important", "story"]),
    ("change", ["change", "different", "ordinary", "usual", "surpris"]),
    ("feeling", ["feel", "felt", "mood", "mind", "heart", "think", "thought"]),
]


def words(text):
    return set(re.findall(r"[^\W\d_]+", text.lower()))


def key(text):
    return " ".join(re.findall(r"\w+", text.lower()))


def alike(first, second):
    """Whether two cards are the same question by this script's rule: exact, or word overlap of NEAR or more."""
    if key(first) == key(second):
        return True
    a, b = words(first), words(second)
    return bool(a | b) and len(a & b) / len(a | b) >= NEAR


def photo_words(photo):
    texts = list(photo.get("labels", [])) + [value for value in photo.get("location", {}).values() if isinstance(value, str)]
    return set().union(*(words(text) for text in texts)) if texts else set()


def frame(card, photo):
    return words(card) - photo_words(photo)


def same_frame(first, second):
    return bool(first | second) and len(first & second) / len(first | second) >= NEAR


def names_photo(card, photo):
    own = photo_words(photo) | (PEOPLE if photo.get("peopleCount") else set())
    return bool(words(card) & own)


def angle(card):
    card_words = words(card)
    return next((name for name, stems in ANGLES if any(word.startswith(stem) for word in card_words for stem in stems)), None)


def request(base_url, method, path, body=None, user=None):
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json"}
    if user:
        headers["X-User-ID"] = user
    call = urllib.request.Request(base_url + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(call, timeout=60) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")
    except TimeoutError:
        # The service answers by LLM_TIMEOUT; a minute without an answer is reported, not fatal to the run.
        return 0, {"error": "no answer in 60 s"}


def run(base_url, locale="en", user="u_variety", sessions=24, refreshed=8, refreshes=5, judge=None):
    """Opens `sessions` photos as one user, first answers only, then refreshes the first `refreshed` of them
    `refreshes` times; returns the figures and every card in order. With a `judge` (fluency_judge.Judge), a broken
    model card counts in `model_cards_broken` and in none of the frames, naming or angles."""
    broken = []  # every model card shown that the judge called broken

    def fluent(prompt):
        if prompt["source"] == "fallback" or judge is None or not judge.broken(prompt["text"]):
            return True
        broken.append(prompt["text"])
        return False

    model_shown = 0
    answers = []
    shown = []  # every card the user has seen, in order
    frames = []  # the frame of every first-answer card, in order
    frame_repeats = naming = model_cards = 0
    angles_per_answer = []
    frame_examples = []
    history_exact = history_near = 0
    near_examples = []
    unanswered = []
    for index, photo in enumerate(PHOTOS[:sessions]):
        status, answer = request(base_url, "POST", "/v1/prompts", {"locale": locale, "photo": photo}, user)
        if status != 200:
            unanswered.append(f"POST /v1/prompts: {status} {answer}")
            continue
        cards = [prompt["text"] for prompt in answer["prompts"]]
        model_shown += sum(1 for prompt in answer["prompts"] if prompt["source"] != "fallback")
        judged = [prompt for prompt in answer["prompts"] if fluent(prompt)]
        for prompt in judged:
            card_frame = frame(prompt["text"], photo)
            earlier = next((text for text, seen in frames if same_frame(card_frame, seen)), None)
            if earlier:
                frame_repeats += 1
                frame_examples.append((earlier, prompt["text"]))
            if prompt["source"] != "fallback":
                model_cards += 1
                naming += 1 if names_photo(prompt["text"], photo) else 0
        frames += [(prompt["text"], frame(prompt["text"], photo)) for prompt in judged]
        angles_per_answer.append(len({angle(prompt["text"]) for prompt in judged} - {None}))
        for card in cards:
            if any(key(card) == key(earlier) for earlier in shown):
                history_exact += 1
            elif any(alike(card, earlier) for earlier in shown):
                history_near += 1
                near_examples.append((next(earlier for earlier in shown if alike(card, earlier)), card))
        shown += cards
        answers.append({"session": answer["session_id"], "cards": cards, "source": answer["source"], "refresh": 0})
    session_pairs = []
    for answer in answers[:refreshed]:
        cards = list(answer["cards"])
        for _ in range(refreshes):
            status, more = request(base_url, "POST", f"/v1/sessions/{answer['session']}/refresh", {}, user)
            if status != 200:
                break
            cards += [prompt["text"] for prompt in more["prompts"]]
            model_shown += sum(1 for prompt in more["prompts"] if prompt["source"] != "fallback")
            for prompt in more["prompts"]:
                fluent(prompt)
            answers.append({"session": answer["session"], "cards": [p["text"] for p in more["prompts"]], "source": more["source"],
                            "refresh": len(cards) // 3 - 1})
        session_pairs.append(sum(1 for first, second in itertools.combinations(cards, 2) if alike(first, second)))
    with_pair = sum(1 for answer in answers if any(alike(a, b) for a, b in itertools.combinations(answer["cards"], 2)))
    sources = {}
    for answer in answers:
        sources[answer["source"]] = sources.get(answer["source"], 0) + 1
    return {
        "locale": locale,
        "sessions": sessions,
        "answers": len(answers),
        "answers_with_near_duplicate_pair": with_pair,
        "refreshed_sessions": len(session_pairs),
        "near_duplicate_pairs_per_refreshed_session": sum(session_pairs) / max(len(session_pairs), 1),
        "first_answer_cards": 3 * sessions,
        "history_exact_repeats": history_exact,
        "history_near_repeats": history_near,
        "sources": sources,
        "near_examples": near_examples[:3],
        "first_answer_frame_repeats": frame_repeats,
        "frame_examples": frame_examples[:3],
        "first_answer_model_cards": model_cards,
        "model_cards_naming_photo": naming,
        "angles_per_first_answer": sum(angles_per_answer) / max(len(angles_per_answer), 1),
        "model_cards_shown": model_shown,
        "model_cards_broken": len(broken) if judge else None,
        "broken_share": len(broken) / max(model_shown, 1) if judge else None,
        "broken_examples": broken[:5],
        "unanswered": unanswered,
        "answers_in_order": answers,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base-url", default="http://127.0.0.1:8080")
    parser.add_argument("--locale", default="en")
    parser.add_argument("--user", default="u_variety")
    parser.add_argument("--sessions", type=int, default=24)
    parser.add_argument("--refreshed", type=int, default=8)
    parser.add_argument("--refreshes", type=int, default=5)
    parser.add_argument("--judge", help="llama-server URL of the fluency judge's model (Gemma 3 270M)")
    arguments = parser.parse_args()
    judge = None
    if arguments.judge:
        from fluency_judge import Judge
        judge = Judge(arguments.judge)
    figures = run(arguments.base_url, arguments.locale, arguments.user, arguments.sessions, arguments.refreshed, arguments.refreshes,
                  judge)
    json.dump({k: v for k, v in figures.items() if k != "answers_in_order"}, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main()
