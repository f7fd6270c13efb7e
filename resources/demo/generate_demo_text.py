#!/usr/bin/env python3
"""Writes demo-text.txt: a small, fixed text made by the project itself, which tests of
mechanisms (pipelines, codecs, the governor, the ledger) train on. The demo job and the
learning benchmarks train on real English instead: Debian's fortunes (demo-job.json).

A small templated grammar of English-like sentences, arithmetic and calendar facts, and
short counting stories. It has real structure at several scales (spelling, word order,
agreement, sums that must be right), so a byte-level GPT's loss falls quickly from
ln 256 ~ 5.5 and keeps falling as it learns longer-range rules. Deterministic: the same
seed gives the same bytes, so the committed file can be regenerated and diffed.

    python3 generate_demo_text.py [--bytes 300000] [--seed 7] [--out demo-text.txt]
"""

import argparse
import random

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy"]
ANIMALS = ["cat", "dog", "bird", "fox", "horse", "rabbit", "goat", "owl", "duck", "mouse"]
PLURALS = {"fox": "foxes", "mouse": "mice"}
ADJECTIVES = ["small", "old", "quick", "quiet", "happy", "brown", "young", "lazy", "clever", "tired"]
VERBS = [("sees", "see"), ("likes", "like"), ("follows", "follow"), ("finds", "find"),
         ("watches", "watch"), ("helps", "help"), ("chases", "chase"), ("meets", "meet")]
PLACES = ["in the garden", "near the river", "under the tree", "on the hill", "by the gate",
          "in the barn", "at the market", "behind the house"]
TIMES = ["in the morning", "at noon", "in the evening", "at night", "every day", "on sunday"]
FRUITS = ["apples", "pears", "plums", "lemons", "cherries", "figs"]
DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december"]
NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                "ten", "eleven", "twelve"]


def noun_phrase(rng):
    if rng.random() < 0.4:
        return rng.choice(NAMES), False
    article = rng.choice(["the", "a"])
    plural = rng.random() < 0.3
    animal = rng.choice(ANIMALS)
    if plural:
        article = rng.choice(["the", "some", "two", "three"])
        animal = PLURALS.get(animal, animal + "s")
    words = ([rng.choice(ADJECTIVES)] if rng.random() < 0.5 else []) + [animal]
    if article == "a" and words[0][0] in "aeiou":
        article = "an"
    return " ".join([article] + words), plural


def sentence(rng):
    subject, plural = noun_phrase(rng)
    verb = rng.choice(VERBS)[1 if plural else 0]  # subject-verb agreement
    obj, _ = noun_phrase(rng)
    tail = rng.choice([rng.choice(PLACES), rng.choice(TIMES), rng.choice(PLACES) + " " + rng.choice(TIMES), ""])
    return " ".join(w for w in [subject, verb, obj, tail] if w) + "."


def arithmetic(rng):
    a, b = rng.randint(0, 20), rng.randint(0, 20)
    kind = rng.randrange(3)
    if kind == 0:
        return f"{a} plus {b} is {a + b}."
    if kind == 1:
        a, b = max(a, b), min(a, b)
        return f"{a} minus {b} is {a - b}."
    a, b = a % 13, b % 13
    return f"{a} times {b} is {a * b}."


def calendar(rng):
    if rng.random() < 0.5:
        i = rng.randrange(7)
        return f"after {DAYS[i]} comes {DAYS[(i + 1) % 7]}."
    i = rng.randrange(12)
    return f"the month after {MONTHS[i]} is {MONTHS[(i + 1) % 12]}."


def story(rng):
    name, other = rng.sample(NAMES, 2)
    fruit = rng.choice(FRUITS)
    have, more = rng.randint(1, 6), rng.randint(1, 6)
    return (f"{name} has {NUMBER_WORDS[have]} {fruit}. {other} gives {name} {NUMBER_WORDS[more]} more. "
            f"now {name} has {have + more} {fruit}.")


def paragraph(rng):
    makers = [sentence] * 4 + [arithmetic] * 2 + [calendar, story]
    return " ".join(rng.choice(makers)(rng) for _ in range(rng.randint(3, 6)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bytes", type=int, default=300_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", default="demo-text.txt")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    lines, size = [], 0
    while size < args.bytes:
        line = paragraph(rng)
        lines.append(line)
        size += len(line) + 1
    with open(args.out, "w", encoding="ascii", newline="\n") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
