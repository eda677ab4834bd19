"""Two-level factorial designs: factors, generators, the defining relation and aliases.

Notation of Jain (1991), *The Art of Computer Systems Performance Analysis*, ch. 17 and 19.
A 2^(k−p) design runs the full 2^(k−p) factorial of its *base* factors in standard order
(the first factor alternates fastest) and sets each of the p *generated* factors from a
generator such as ``D = ABC`` or ``C = -AB``. Multiplying a generator by its left side gives
a word of the **defining relation** (``I = ABCD``, ``I = -ABC``); the relation is the group
those words generate. An effect is **confounded** (aliased) with its product with every
word of the relation (``A = BCD``, ``AB = CD``): their sign-table columns are identical
(or opposite), so the experiment estimates their sum. The **resolution** is the length of
the shortest word (III: main effects aliased with two-factor interactions; IV: main
effects clear of them).

:class:`FractionalDesign` is the algebra over factor names of any length (studies use it
directly); :class:`Design` adds what running a design needs: one-letter factors in Jain's
notation, each level mapped to scenario overrides, and checked generators.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from arqlab.errors import ScenarioError

if TYPE_CHECKING:
    import pandas as pd

Word = frozenset[str]
Signed = tuple[int, Word]


def _multiply(a: Signed, b: Signed) -> Signed:
    """Product of two signed words: squares cancel (A·A = I), signs multiply."""
    return a[0] * b[0], a[1] ^ b[1]


@dataclass(frozen=True)
class FractionalDesign:
    """A two-level design: factor names, ±1 design matrix, and its defining relation."""

    factors: tuple[str, ...]
    matrix: np.ndarray
    relation: tuple[Signed, ...]

    @property
    def runs(self) -> int:
        return int(self.matrix.shape[0])

    @classmethod
    def full(cls, factors: Sequence[str]) -> FractionalDesign:
        """The 2^k full factorial in standard order (no aliases)."""
        return cls.fraction(factors, {})

    @classmethod
    def fraction(cls, base: Sequence[str], generators: Mapping[str, str]) -> FractionalDesign:
        """A 2^(k−p) fraction: ``base`` factors in full factorial, each generated factor
        the product of the base factors in its word (``{"D": "ABC"}``, ``{"E": "-AC"}``;
        ``"window*timeout"`` when names are longer than one character)."""
        base = tuple(base)
        if len(set(base)) != len(base) or not base:
            raise ValueError(f"base factors must be distinct and non-empty, got {list(base)}")
        gens: list[tuple[str, Signed]] = []
        for name, text in generators.items():
            if name in base:
                raise ValueError(f"generated factor {name!r} is also a base factor")
            sign, word = parse_word(text, base)
            if len(word) < 2:
                raise ValueError(f"generator {name} = {text!r} must be a product of at least two base factors")
            gens.append((name, (sign, word)))
        factors = base + tuple(name for name, _ in gens)
        n = 2 ** len(base)
        levels = np.array([[1 if (i >> j) & 1 else -1 for j in range(len(base))] for i in range(n)], dtype=int)
        cols = {f: levels[:, j] for j, f in enumerate(base)}
        for name, (sign, word) in gens:
            cols[name] = sign * np.prod([cols[f] for f in sorted(word)], axis=0)
        matrix = np.column_stack([cols[f] for f in factors])
        words = [(sign, word | {name}) for name, (sign, word) in gens]
        group: set[Signed] = set()
        for r in range(1, len(words) + 1):
            for combo in itertools.combinations(words, r):
                prod: Signed = (1, frozenset())
                for w in combo:
                    prod = _multiply(prod, w)
                group.add(prod)
        return cls(factors, matrix, tuple(sorted(group, key=lambda sw: _order_key(sw[1], factors))))

    @classmethod
    def from_matrix(cls, factors: Sequence[str], matrix: Any) -> FractionalDesign:
        """A design given by its ±1 matrix; the defining relation is read off its columns
        (every product of factor columns that is constant, +1 or −1)."""
        factors = tuple(factors)
        m = np.asarray(matrix, dtype=int)
        if m.ndim != 2 or m.shape[1] != len(factors):
            raise ValueError(f"design matrix must have one column per factor ({len(factors)}), got shape {m.shape}")
        if not np.isin(m, (-1, 1)).all():
            raise ValueError("design matrix entries must be -1 or +1")
        relation: list[Signed] = []
        for r in range(1, len(factors) + 1):
            for combo in itertools.combinations(factors, r):
                col = np.prod([m[:, factors.index(f)] for f in combo], axis=0)
                if abs(int(col.sum())) == m.shape[0]:
                    relation.append((int(col[0]), frozenset(combo)))
        return cls(factors, m, tuple(relation))

    def column(self, word: Word) -> np.ndarray:
        """The contrast column of an effect: the product of its factors' columns."""
        out = np.ones(self.runs, dtype=int)
        for f in word:
            out = out * self.matrix[:, self.factors.index(f)]
        return out

    def resolution(self) -> int | None:
        """Length of the shortest word of the defining relation; None for a full factorial."""
        return min((len(w) for _, w in self.relation), default=None)

    def aliases(self, effect: str | Word) -> list[Signed]:
        """Every effect aliased with ``effect`` (its product with each defining word)."""
        word = parse_word(effect, self.factors)[1] if isinstance(effect, str) else effect
        out = [_multiply((1, word), w) for w in self.relation]
        return sorted(out, key=lambda sw: _order_key(sw[1], self.factors))

    def name(self, word: Word, sign: int = 1) -> str:
        """``AB``, ``-CD``, or ``window*timeout`` when a factor name is longer than a character."""
        ordered = sorted(word, key=self.factors.index)
        sep = "" if all(len(f) == 1 for f in self.factors) else "*"
        return ("-" if sign < 0 else "") + (sep.join(ordered) or "I")


def parse_word(text: str, factors: Sequence[str]) -> Signed:
    """``"-ABC"`` → (−1, {A, B, C}); names joined by ``*`` when longer than one character."""
    body = text.strip()
    sign = -1 if body.startswith("-") else 1
    body = body.lstrip("+-")
    parts = body.split("*") if "*" in body or any(len(f) > 1 for f in factors) else list(body)
    unknown = [p for p in parts if p not in factors]
    if unknown or not parts or len(set(parts)) != len(parts):
        raise ValueError(f"effect {text!r}: expected distinct factors from {list(factors)}")
    return sign, frozenset(parts)


def _order_key(word: Word, factors: Sequence[str]) -> tuple[int, list[int]]:
    return len(word), sorted(factors.index(f) for f in word)


LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"  # no I: it names the identity
_GENERATOR = re.compile(r"^\s*([A-Z])\s*=\s*([+-]?)\s*([A-Z]+)\s*$")


class DesignError(ScenarioError):
    """A design that cannot be used; ``problems`` names each field (CLI exit 2)."""


@dataclass(frozen=True)
class Factor:
    """A two-level factor: the scenario overrides (dotted keys) applied at each level."""

    name: str
    low: Mapping[str, Any]
    high: Mapping[str, Any]
    label: str = ""
    level_names: tuple[str, str] = ("-", "+")

    @classmethod
    def on_key(cls, name: str, key: str, low: Any, high: Any, label: str = "",
               level_names: tuple[str, str] | None = None) -> Factor:
        """A factor that sets one dotted key to ``low`` or ``high``."""
        names = level_names if level_names is not None else (str(low), str(high))
        return cls(name, {key: low}, {key: high}, label or key, names)

    @property
    def title(self) -> str:
        return self.label or self.name


def _alphabetical(signed: Signed) -> tuple[int, str]:
    """Lower order first, then alphabetical: how Jain names and lists effects."""
    return len(signed[1]), "".join(sorted(signed[1]))


def signed_name(signed: Signed) -> str:
    sign, word = signed
    return ("-" if sign < 0 else "") + ("".join(sorted(word)) or "I")


@dataclass(frozen=True, eq=False)  # eq by identity: the algebra holds a numpy matrix
class Design:
    """A checked 2^k or 2^(k−p) design over :class:`Factor` s; build it with :func:`design`."""

    factors: tuple[Factor, ...]
    generators: tuple[str, ...]
    algebra: FractionalDesign

    @property
    def k(self) -> int:
        return len(self.factors)

    @property
    def p(self) -> int:
        return len(self.generators)

    @property
    def n_runs(self) -> int:
        return self.algebra.runs

    @property
    def base(self) -> tuple[str, ...]:
        generated = {g[0] for g in self.generators}
        return tuple(f.name for f in self.factors if f.name not in generated)

    def factor(self, name: str) -> Factor:
        return next(f for f in self.factors if f.name == name)

    def defining_relation(self) -> list[str]:
        """``["I", "-ABC"]``: the 2^p words equal to the identity in this fraction."""
        return ["I"] + [signed_name(w) for w in sorted(self.algebra.relation, key=_alphabetical)]

    def resolution(self) -> int | None:
        """The length of the shortest word of the defining relation other than I (Jain
        §19.6); None for a full factorial, where no effect is confounded."""
        return self.algebra.resolution()

    def _word(self, effect: str) -> Word:
        text = effect.strip().upper()
        if text == "I":
            return frozenset()
        try:
            return parse_word(text, tuple(f.name for f in self.factors))[1]
        except ValueError as exc:
            raise DesignError([f"{exc}, or I"]) from None

    def aliases(self, effect: str) -> list[str]:
        """The effects confounded with ``effect``, each signed relative to it
        (``aliases("C") == ["-AB"]`` when I = −ABC)."""
        word = self._word(effect)
        if not word:
            return self.defining_relation()[1:]
        return [signed_name(w) for w in sorted(self.algebra.aliases(word), key=_alphabetical)]

    def effects(self) -> list[str]:
        """The 2^(k−p) − 1 effects the design estimates, each named by the lowest-order
        word of its alias set: main effects first, then interactions."""
        relation = [(1, frozenset[str]())] + list(self.algebra.relation)
        names = []
        for r in range(1, len(self.base) + 1):
            for combo in itertools.combinations(self.base, r):
                chain = [(s, frozenset(combo) ^ w) for s, w in relation]
                names.append(min(chain, key=_alphabetical)[1])
        return ["".join(sorted(w)) for w in sorted(names, key=lambda w: _alphabetical((1, w)))]

    def runs(self) -> list[dict[str, int]]:
        """Per run, every factor's level (−1 or +1), in standard order: the first base
        factor (alphabetically) alternates fastest, as in Jain's sign tables."""
        names = self.algebra.factors
        return [{f.name: int(row[names.index(f.name)]) for f in self.factors} for row in self.algebra.matrix]

    def column(self, effect: str) -> list[int]:
        """The sign-table column of any word: the product of its factors' levels per run."""
        return [int(v) for v in self.algebra.column(self._word(effect))]

    def overrides(self, run: int) -> dict[str, Any]:
        """The scenario overrides of run ``run``: each factor's low or high set, merged."""
        levels = self.runs()[run]
        out: dict[str, Any] = {}
        for f in self.factors:
            out.update(f.high if levels[f.name] > 0 else f.low)
        return out

    def level_names(self, run: int) -> dict[str, str]:
        """Per factor, the name of its level in run ``run`` (e.g. ``{"A": "yes"}``)."""
        levels = self.runs()[run]
        return {f.name: f.level_names[1 if levels[f.name] > 0 else 0] for f in self.factors}

    def label(self, effect: str) -> str:
        """Factor labels joined by " × " ("mean" for I)."""
        word = self._word(effect)
        return " × ".join(self.factor(c).title for c in sorted(word)) if word else "mean"

    def sign_table(self) -> pd.DataFrame:
        """Rows = runs; columns ``I`` and :meth:`effects` (Jain's sign table)."""
        import pandas as pd

        columns = {"I": [1] * self.n_runs}
        columns.update({e: self.column(e) for e in self.effects()})
        return pd.DataFrame(columns)


def _check_factors(factors: Sequence[Factor]) -> tuple[list[str], list[str]]:
    problems: list[str] = []
    names: list[str] = []
    for i, f in enumerate(factors):
        if not isinstance(f.name, str) or len(f.name) != 1 or f.name not in LETTERS:
            where = f"factors.{f.name}" if isinstance(f.name, str) and f.name else f"factors[{i}]"
            problems.append(f"{where}: the name {f.name!r} must be one capital letter A–Z other than I "
                            "(Jain's notation: effects are words such as AB)")
            continue
        if f.name in names:
            problems.append(f"factors.{f.name}: defined twice")
        names.append(f.name)
        for side in ("low", "high"):
            value = getattr(f, side)
            if not isinstance(value, Mapping) or not value:
                problems.append(f"factors.{f.name}.{side} = {value!r}: expected a table of scenario overrides")
        if isinstance(f.low, Mapping) and f.low and dict(f.low) == dict(f.high):
            problems.append(f"factors.{f.name}.levels: low and high are identical ({dict(f.low)!r}); "
                            "a factor needs two different levels")
        if len(f.level_names) != 2:
            problems.append(f"factors.{f.name}.level_names = {list(f.level_names)!r}: expected two names")
    if not names and not problems:
        problems.append("factors: expected at least one factor")
    return names, problems


MAX_DESIGN_RUNS = 4096
"""Designs of more runs are refused unless the limit is raised (``max_runs`` in the
design file, ``--max-runs``): 2^k grows fast, and 25 factors would plan 33 million runs."""


def design(factors: Sequence[Factor], generators: Sequence[str] = (), max_runs: int = MAX_DESIGN_RUNS) -> Design:
    """A checked design: ``factors`` (kept sorted by name) and generators such as ``"D=ABC"``.

    Raises :class:`DesignError` naming each problem: a bad or duplicate factor name, a
    factor without two distinct levels, a generator that is malformed, names a missing
    factor, has a generated factor on its right side, generates a factor twice, or gives
    a fraction that confounds two main effects (resolution ≤ 2: they cannot be separated)."""
    names, problems = _check_factors(factors)
    parsed: dict[str, str] = {}
    for i, text in enumerate(generators):
        where = f"generators[{i}] = {text!r}"
        m = _GENERATOR.match(text) if isinstance(text, str) else None
        if m is None:
            problems.append(f"{where}: expected FACTOR=WORD such as 'D=ABC' or 'C=-AB'")
            continue
        left, minus, right = m.groups()
        missing = sorted({c for c in left + right if c not in names})
        if missing:
            which = f"factor {missing[0]} is" if len(missing) == 1 else f"factors {', '.join(missing)} are"
            problems.append(f"{where}: {which} not defined (factors: {', '.join(sorted(names)) or 'none'})")
        elif len(set(right)) != len(right) or left in right:
            problems.append(f"{where}: the right side must name distinct factors other than {left}")
        elif left in parsed:
            problems.append(f"{where}: factor {left} is generated twice")
        else:
            parsed[left] = minus + "".join(sorted(right))
    for i, text in enumerate(generators):
        m = _GENERATOR.match(text) if isinstance(text, str) else None
        nested = sorted(c for c in (m.group(3) if m else "") if c in parsed)
        if nested:
            problems.append(f"generators[{i}] = {text!r}: {', '.join(nested)} is itself generated; "
                            "write the right side in base factors only")
    if problems:
        raise DesignError(problems)
    base = sorted(n for n in names if n not in parsed)
    if 2 ** len(base) > max_runs:  # before the sign table of 2^(k-p) rows is built
        raise DesignError([f"factors: {len(names)} factors and {len(parsed)} generator(s) make 2^{len(base)} = "
                           f"{2 ** len(base):,} runs, more than the limit of {max_runs:,}: add generators for a "
                           "smaller fraction, or raise the limit (max_runs = N in the design file, or --max-runs N)"])
    short = {left: word for left, word in parsed.items() if len(word.lstrip("-")) < 2}
    algebra = FractionalDesign.fraction(base, {} if short else parsed)
    if short:
        relation = [f"I = {'-' if w.startswith('-') else ''}{''.join(sorted(left + w.lstrip('-')))}"
                    for left, w in short.items()]
    else:
        relation = [f"I = {signed_name(w)}" for w in algebra.relation if len(w[1]) <= 2]
    if relation:
        raise DesignError([f"generators = {list(generators)!r}: the fraction confounds main effects with each other "
                           f"({', '.join(relation)}: resolution 2); use generators whose words are longer"])
    ordered = tuple(sorted(factors, key=lambda f: f.name))
    return Design(ordered, tuple(f"{left}={word}" for left, word in parsed.items()), algebra)
