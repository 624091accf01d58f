"""What a comment's text says before anyone reads it: contact details (refused on a minor's
page), watched words and the classifier's score (both send it to review).

Both checks run offline from their packages: better-profanity's word list (with the sports
words and names it would hold by mistake let through) and alt-profanity-check's linear model
(scikit-learn), loaded once per process on first use. docs/decisions.md gives their false
positives and negatives over the sports corpus in tests/comments/corpus.py.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.conf import settings

# Words of better-profanity's list that sports talk uses in their ordinary sense: "kill it on
# the pitch", "he murdered that ball", rugby's hooker, "a hell of a season", "pot the black",
# "screw shot", "god-given".
SPORTS_WORDS = ("kill", "murder", "hooker", "hell", "damn", "god", "pot", "screw")
# Words the list lacks that a child's page must not show unreviewed: sexualising and
# disability slurs.
EXTRA_WORDS = ("sexy", "nudes", "spastic", "spaz", "mong")
# Words of the list that are also names: let through when written as one, a capitalised word
# beside another ("Dick Smith", "Coach Wang").
NAME_WORDS = frozenset({"dick", "willy", "fanny", "wang", "johnson", "randy"})
_CAPITALISED_PAIR = re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)+\b")

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", re.IGNORECASE)
_EMAIL_SPELLED = re.compile(
    r"\b[\w.+-]+\s*(?:\(at\)|\[at\]|\sat\s)\s*[\w-]+\s*(?:\(dot\)|\[dot\]|\sdot\s)\s*\w+",
    re.IGNORECASE,
)
# Nine digits or more, with spaces, dots, dashes or brackets between them (a score line such
# as "21-18 21-15" or a year has fewer).
_PHONE = re.compile(r"(?<![\w])\+?\(?\d(?:[\s().-]{0,2}\d){8,}(?![\w])")
_LINK = re.compile(
    r"\bhttps?://\S+|\bwww\.\S+|"
    r"\b[\w-]+\.(?:com|net|org|co|io|me|ly|uk|gg|tv|app|link|info|biz|us)\b(?:/\S*)?",
    re.IGNORECASE,
)
_HANDLE = re.compile(r"(?<![\w.])@[A-Za-z0-9_.]{2,}")
_SOCIAL = re.compile(
    r"\b(?:insta(?:gram)?|ig|snap(?:chat)?|tiktok|twitter|whatsapp|telegram|discord|kik|"
    r"facebook|fb)\b\s*(?:[:@-]|is|handle|name)\s*\S+|"
    r"\b(?:dm|text|message|add|call|ring|whatsapp)\s+me\b",
    re.IGNORECASE,
)
_CONTACT_PATTERNS = (_EMAIL, _EMAIL_SPELLED, _PHONE, _LINK, _HANDLE, _SOCIAL)


def has_contact_details(text: str) -> bool:
    """A phone number, an email address, a link or a social handle (or an invitation to
    make contact: "dm me", "snap: ..."), the things a stranger uses to reach a child."""
    return any(pattern.search(text) for pattern in _CONTACT_PATTERNS)


_lock = threading.Lock()


@cache
def _profanity() -> Any:
    from better_profanity import Profanity

    with _lock:
        checker = Profanity()
        checker.load_censor_words(whitelist_words=list(SPORTS_WORDS))
        checker.add_censor_words(list(EXTRA_WORDS))
    return checker


def _without_names(text: str) -> str:
    """The text with the list's name-words taken out where they are written as names."""

    def keep_others(match: re.Match[str]) -> str:
        words = match.group(0).split()
        return " ".join(word for word in words if word.lower() not in NAME_WORDS)

    return _CAPITALISED_PAIR.sub(keep_others, text)


def watched_words(text: str) -> list[str]:
    """The watched words ``text`` contains (lower-cased, once each, in order)."""
    checker = _profanity()
    text = _without_names(text)
    if not checker.contains_profanity(text):
        return []
    found: list[str] = []
    for word in re.findall(r"[\w'*$@!-]+", text):
        if checker.contains_profanity(word) and word.lower() not in found:
            found.append(word.lower())
    return found or ["(phrase)"]


@cache
def _classifier() -> Any:
    from profanity_check import predict_prob

    return predict_prob


def classifier_score(text: str) -> float:
    """The probability (0..1) alt-profanity-check's model gives that ``text`` is offensive
    (names written as names left out: the model reads "Dick Smith" as an insult)."""
    predict_prob = _classifier()
    with _lock:
        return float(predict_prob([_without_names(text)])[0])


@dataclass(frozen=True)
class Screening:
    watched: list[str]
    score: float

    @property
    def flagged_by_words(self) -> bool:
        return bool(self.watched)

    @property
    def flagged_by_classifier(self) -> bool:
        return self.score >= settings.COMMENT_CLASSIFIER_THRESHOLD


def screen(text: str) -> Screening:
    return Screening(watched=watched_words(text), score=classifier_score(text))
