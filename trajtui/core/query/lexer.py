"""The query language's tokens: words, "phrases", ``field:value`` terms, operators.

A token keeps its span in the query text, so an error can point at it.
"""

from __future__ import annotations

from dataclasses import dataclass


class QueryError(ValueError):
    """A query that does not parse, or names a field that does not exist.

    Attributes:
        message: One line saying what is wrong.
        start: Offset in the query text where the problem starts (0-based).
        end: Offset just past the problem (``end > start`` unless the text is empty).
    """

    def __init__(self, message: str, start: int, end: int) -> None:
        super().__init__(message)
        self.message = message
        self.start = start
        self.end = max(end, start)

    @property
    def column(self) -> int:
        """The 1-based column where the problem starts."""
        return self.start + 1

    def __str__(self) -> str:
        return f"col {self.column}: {self.message}"


LPAREN, RPAREN, OR, AND, NOT, TERM = "(", ")", "OR", "AND", "NOT", "term"


@dataclass(frozen=True, slots=True)
class Token:
    """One token.

    Attributes:
        kind: ``(``, ``)``, ``OR``, ``AND``, ``NOT`` (also a leading ``-``) or ``term``.
        text: The token as typed (a term with its quotes).
        start: Offset of its first character.
        end: Offset just past it.
    """

    kind: str
    text: str
    start: int
    end: int


_OPERATORS = {"OR": OR, "AND": AND, "NOT": NOT}


def tokenize(text: str) -> list[Token]:
    """The tokens of ``text``.

    Whitespace separates terms; ``(`` and ``)`` are tokens wherever they are (outside
    quotes); a ``-`` starting a term negates it; ``OR``, ``AND`` and ``NOT`` in capitals are
    operators. A double quote starts a quoted part running to the next unescaped ``"``
    (``\\"`` is a quote inside it), spaces included.

    Raises:
        QueryError: A quote that is not closed.
    """
    out: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif c in "()":
            out.append(Token(c, c, i, i + 1))
            i += 1
        elif c == "-" and i + 1 < n and not text[i + 1].isspace() and text[i + 1] != ")":
            out.append(Token(NOT, "-", i, i + 1))
            i += 1
        else:
            start = i
            while i < n and not text[i].isspace() and text[i] not in "()":
                if text[i] == '"':
                    i = _quote_end(text, i)
                else:
                    i += 1
            word = text[start:i]
            out.append(Token(_OPERATORS.get(word, TERM), word, start, i))
    return out


def _quote_end(text: str, at: int) -> int:
    """Offset just past the quoted part opened at ``at``."""
    i = at + 1
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            i += 2
        elif text[i] == '"':
            return i + 1
        else:
            i += 1
    raise QueryError('this quote is not closed: add a " at the end', at, len(text))


def unquote(text: str) -> tuple[str, bool]:
    """``text`` without its quotes (``"a b"`` -> ``a b``, ``\\"`` -> ``"``), and whether it
    was quoted."""
    if len(text) >= 2 and text[0] == '"' and text[-1] == '"':
        body = text[1:-1]
        out, i = [], 0
        while i < len(body):
            if body[i] == "\\" and i + 1 < len(body):
                out.append(body[i + 1])
                i += 2
            else:
                out.append(body[i])
                i += 1
        return "".join(out), True
    return text, False
