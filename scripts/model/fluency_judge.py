#!/usr/bin/env python3
"""An independent judge of whether a card reads as a sentence (issue 71): a base model that did not write the card
(Gemma 3 270M, `make serve-model MODEL=gemma`) scores each of the card's own tokens given the ones before it.

The card is cut into the judge's natural tokens (`/tokenize`), then asked one token at a time (`/completion`,
`n_predict: 1`, the prompt cache on, so each call reads one more token): the log-probability of the card's next
token among the judge's 100 likeliest (a token outside them scores just below the hundredth). A rare word is
improbable anywhere, so each token's log-probability is taken relative to the token's own prior (its probability as
the first token of a text, from the judge's 5,000 likeliest there): the mean of those over the card, the first word
left out, is its SLOR (syntactic log-odds ratio, Lau, Clark and Lappin 2017). A card is broken when it is below
FLOOR. The lowest token alone did not work: it measured how surprising the photo's topic was ("talk", "celebration").
Nothing is shared with the service's gate: another model, its own tokens, its own floor, calibrated on 72 lines
read by a person (docs/QUALITY.md: 81 % of lines judged as the reader did, the same broken share).

    python3 scripts/model/fluency_judge.py URL < cards.txt      (one card a line; prints SLOR, least likely token, card)
"""
import json
import sys
import urllib.request

FLOOR = 9.5
# A base model continues text: the cards are put where a journaling question would be written.
CONTEXT = "A question to answer in a photo journal:\n"


def post(url, body):
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as reply:
        return json.load(reply)


class Judge:
    def __init__(self, url, floor=FLOOR):
        self.url = url.rstrip("/")
        self.floor = floor
        self.context = post(self.url + "/tokenize", {"content": CONTEXT, "add_special": True})["tokens"]
        start = post(self.url + "/tokenize", {"content": "", "add_special": True})["tokens"]
        first = post(self.url + "/completion", {"prompt": start, "n_predict": 1, "n_probs": 5000, "temperature": 0})
        self.prior = {c["id"]: c["logprob"] for c in first["completion_probabilities"][0]["top_logprobs"]}
        self.rarest = min(self.prior.values())
        self.cache = {}

    def score(self, card):
        """The card's SLOR after its first word, and its least likely token's text; None for a card of one word."""
        if card in self.cache:
            return self.cache[card]
        pieces = post(self.url + "/tokenize", {"content": card, "with_pieces": True})["tokens"]
        ids = [piece["id"] for piece in pieces]
        first_word = card.find(" ")
        ratios, worst, offset = [], (float("inf"), ""), 0
        for index, piece in enumerate(pieces):
            text = piece["piece"]
            start, offset = offset, offset + len(text)
            if start < first_word or not text.strip():
                continue
            reply = post(self.url + "/completion", {"prompt": self.context + ids[:index], "n_predict": 1, "n_probs": 100,
                                                    "cache_prompt": True, "temperature": 0})
            candidates = reply["completion_probabilities"][0]["top_logprobs"]
            logprob = next((c["logprob"] for c in candidates if c["id"] == ids[index]), candidates[-1]["logprob"] - 0.01)
            ratios.append(logprob - self.prior.get(ids[index], self.rarest))
            worst = min(worst, (ratios[-1], text))
        self.cache[card] = (sum(ratios) / len(ratios) if ratios else None, worst[1])
        return self.cache[card]

    def broken(self, card):
        slor = self.score(card)[0]
        return slor is not None and slor < self.floor


def main():
    judge = Judge(sys.argv[1])
    for card in (line.strip() for line in sys.stdin):
        if card:
            slor, worst = judge.score(card)
            print(f"{slor if slor is not None else float('nan'):6.2f} {worst!r:14} | {card}", flush=True)


if __name__ == "__main__":
    main()
