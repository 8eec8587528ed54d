"""A recursive-descent parser from query text to :mod:`~trajtui.core.query.nodes`.

Grammar (``OR`` binds loosest; terms side by side are ANDed)::

    query   := or?
    or      := and ("OR" and)*
    and     := unary ("AND"? unary)*
    unary   := ("-" | "NOT") unary | primary
    primary := "(" or ")" | term
    term    := WORD | "PHRASE" | NAME (":" | "=" | "!=" | "<" | "<=" | ">" | ">=") VALUE

Groups and negations nest at most :data:`MAX_DEPTH` deep: deeper is a :class:`QueryError`
pointing at the first token past the limit, never a ``RecursionError`` (here, or in the
recursive walks of the tree that judge and compare it).
"""

from __future__ import annotations

import os
from collections.abc import Collection

from trajtui.core.query.fields import (
    COUNT,
    DURATION,
    FILE_METRIC,
    FLAG,
    IS,
    NAMES,
    NUMBER,
    RUN_TEXTS,
    RUNS,
    STATUS,
    STEPS,
    TEXT,
    TOOL,
    TYPO,
    closest,
    field_named,
    number_value,
    unknown_field,
)
from trajtui.core.query.lexer import (
    AND,
    LPAREN,
    NOT,
    OR,
    RPAREN,
    TERM,
    QueryError,
    Token,
    tokenize,
    unquote,
)
from trajtui.core.query.nodes import (
    And,
    Compare,
    Everything,
    FileMetric,
    Flag,
    IsProblem,
    Meta,
    Node,
    Not,
    Or,
    RunText,
    Status,
    StepStatus,
    Text,
    TextField,
    Tool,
    Word,
)

_OPS = ("<=", ">=", "!=", "<", ">", "=", ":")
MAX_DEPTH = 64
"""Parentheses and negations (``(``, ``-``, ``NOT``) open inside one another, at most."""
_TRUE, _FALSE = ("true", "yes", "1"), ("false", "no", "0")


class Parser:
    """Parses one query text (see the module's grammar).

    Args:
        text: The query.
        keys: Metadata keys the data has, or None when not known yet. A name that is
            neither a field nor one of ``keys`` is an error; with ``keys`` None, a name
            spelled like a field (``scroe``) is one, any other is taken as a metadata key.
        scope: :data:`~trajtui.core.query.fields.RUNS` or
            :data:`~trajtui.core.query.fields.STEPS` (steps have no metadata: a name that is
            not a step field is an error).
    """

    def __init__(self, text: str, keys: Collection[str] | None = None, scope: str = RUNS) -> None:
        self.text = text
        self.scope = scope
        if scope == STEPS:
            keys = ()
        self.tokens = tokenize(text)
        self.pos = 0
        self.depth = 0
        self.keys = keys
        self.named: list[str] = []
        """Metadata keys the query names without ``metadata.``."""
        self._keys_low = None if keys is None else {k.casefold() for k in keys}

    def parse(self) -> Node:
        """The query's tree.

        Raises:
            QueryError: The text does not parse, or names an unknown field.
        """
        if not self.tokens:
            return Everything()
        node = self._or()
        if self.pos < len(self.tokens):
            tok = self.tokens[self.pos]
            raise QueryError("no '(' opens this ')'", tok.start, tok.end)
        return node

    def _peek(self) -> Token | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def _next(self) -> Token:
        tok = self.tokens[self.pos]
        self.pos += 1
        return tok

    def _need_operand(self, op: Token) -> None:
        nxt = self._peek()
        if nxt is None or nxt.kind in (OR, AND, RPAREN):
            what = "'-'" if op.text == "-" else f"'{op.text}'"
            raise QueryError(f"{what} needs a term after it", op.start, op.end)

    def _deeper(self, tok: Token) -> None:
        """Enter a group or negation opened by ``tok``."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise QueryError(
                f"nested too deep (more than {MAX_DEPTH} parentheses and negations inside "
                "one another)",
                tok.start,
                tok.end,
            )

    def _or(self) -> Node:
        parts = [self._and()]
        while (tok := self._peek()) is not None and tok.kind == OR:
            self._next()
            self._need_operand(tok)
            parts.append(self._and())
        return parts[0] if len(parts) == 1 else Or(tuple(parts))

    def _and(self) -> Node:
        parts = [self._unary()]
        while (tok := self._peek()) is not None and tok.kind not in (OR, RPAREN):
            if tok.kind == AND:
                self._next()
                self._need_operand(tok)
            parts.append(self._unary())
        return parts[0] if len(parts) == 1 else And(tuple(parts))

    def _unary(self) -> Node:
        tok = self._peek()
        if tok is not None and tok.kind == NOT:
            self._next()
            self._need_operand(tok)
            self._deeper(tok)
            node = self._unary()
            self.depth -= 1
            return Not(node)
        return self._primary()

    def _primary(self) -> Node:
        tok = self._next()
        if tok.kind == LPAREN:
            nxt = self._peek()
            if nxt is None:
                raise QueryError("this '(' is not closed", tok.start, tok.end)
            if nxt.kind == RPAREN:
                raise QueryError("nothing between these parentheses", tok.start, nxt.end)
            self._deeper(tok)
            node = self._or()
            self.depth -= 1
            close = self._peek()
            if close is None or close.kind != RPAREN:
                raise QueryError("this '(' is not closed", tok.start, tok.end)
            self._next()
            return node
        if tok.kind == RPAREN:
            raise QueryError("no '(' opens this ')'", tok.start, tok.end)
        if tok.kind in (OR, AND):
            raise QueryError(f"'{tok.text}' needs a term before it", tok.start, tok.end)
        assert tok.kind == TERM
        return self._term(tok)

    def _term(self, tok: Token) -> Node:
        text = tok.text
        if text.startswith('"'):
            value, quoted = unquote(text)
            if not value:
                raise QueryError("an empty phrase", tok.start, tok.end)
            return Word(Text(value, quoted))
        split = split_term(text)
        if split is None or (split[1] == ":" and split[2].startswith("//")):  # a URL
            return Word(Text(text))
        name, op, raw = split
        if not raw:
            raise QueryError(f"'{name}{op}' needs a value after it", tok.start, tok.end)
        value, quoted = unquote(raw)
        start = tok.start + len(name) + len(op)
        return self._field(name, op, value, quoted, tok.start, start, tok.end)

    def _field(
        self, name: str, op: str, value: str, quoted: bool, at: int, start: int, end: int
    ) -> Node:
        """The node of ``name op value`` (``at``: where the name starts; ``start``/``end``:
        the value's span)."""
        low = name.casefold()
        if low.startswith("metadata.") and self.scope == RUNS:
            key = name[len("metadata.") :]
            if not key:
                raise QueryError("'metadata.' needs a key: metadata.category:ui", at, start)
            return self._meta(key, op, value, quoted, start, end)
        f = field_named(name, self.scope)
        if f is None:
            if self._keys_low is not None:
                if low not in self._keys_low:
                    raise unknown_field(name, at, at + len(name), self.keys or (), self.scope)
            elif closest(name, NAMES, TYPO):
                raise unknown_field(name, at, at + len(name), ())
            self.named.append(name)
            return self._meta(name, op, value, quoted, start, end)
        kind = f.kind
        numeric = kind in (NUMBER, COUNT, DURATION)
        if not numeric and op not in (":", "=", "!="):
            raise QueryError(f"{f.name} is {kind}, not a number: use {f.name}:VALUE", at, start)
        node: Node
        if numeric:
            number = number_value(kind, f.name, value, start, end)
            if f.source.startswith(FILE_METRIC):
                return FileMetric(f.source, op, number)
            return Compare(f.source or f.name, op, number)
        if kind == TEXT and self.scope == RUNS and f.name in RUN_TEXTS:
            node = RunText(f.name, Text(value, quoted))
        elif kind == TEXT:
            node = TextField(f.source or f.name, Text(value, quoted))
        elif kind == STATUS:
            node = self._status(Text(value, quoted))
        elif kind == IS:
            if value.casefold() in ("problem", "problems") and self.scope == RUNS:
                node = IsProblem()
            else:
                node = self._status(Text(value, quoted))
        elif kind == TOOL:
            node = Tool(Text(value, quoted, whole=True))
        else:
            assert kind == FLAG
            low_value = value.casefold()
            if low_value not in (*_TRUE, *_FALSE):
                raise QueryError(f"{f.name} is true or false (not '{value}')", start, end)
            node = Flag(f.source or f.name, low_value in _TRUE)
        return Not(node) if op == "!=" else node

    def _status(self, text: Text) -> Node:
        return StepStatus(text) if self.scope == STEPS else Status(text)

    def _meta(self, key: str, op: str, value: str, quoted: bool, start: int, end: int) -> Node:
        if op in (":", "=", "!="):
            if value == "~" or value.startswith("~/"):  # a path under your home (cwd:~/src/x)
                value = os.path.expanduser(value)
            return Meta(key.casefold(), op, Text(value, quoted))
        try:
            number = float(value)
        except ValueError:
            raise QueryError(f"'{op}' compares numbers: '{value}' is not one", start, end) from None
        return Meta(key.casefold(), op, Text(value), number)


def split_term(text: str) -> tuple[str, str, str] | None:
    """``(name, operator, value)`` of a ``field:value`` or comparison term, or None for a
    word. A name starts with a letter or ``_`` and goes on with letters, digits, ``_``,
    ``.`` and ``-`` (scanned once: no pattern to backtrack on hostile text)."""
    if not text or not (text[0].isalpha() or text[0] == "_"):
        return None
    i = 1
    while i < len(text) and (text[i].isalnum() or text[i] in "_.-"):
        i += 1
    for op in _OPS:
        if text.startswith(op, i):
            return text[:i], op, text[i + len(op) :]
    return None
