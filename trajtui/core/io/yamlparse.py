"""The parsing behind :func:`trajtui.core.io.yamlsafe.load`: PyYAML's safe loader, with every
document checked for depth, size, aliases and tags before a Python object is built (kept
apart so that PyYAML is imported only when a YAML file is read)."""

from __future__ import annotations

from typing import Any

import yaml
from yaml.nodes import CollectionNode, MappingNode, Node, ScalarNode, SequenceNode

from trajtui.core.io.yamlsafe import MAX_ALIASES, MAX_DEPTH, MAX_INT_TEXT, MAX_NODES, YamlError

SafeLoader: type[Any] = getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader
"""The loader used: PyYAML's safe loader, in C when available."""

_STD = "tag:yaml.org,2002:"
_PLAIN_TAGS = frozenset(_STD + t for t in ("str", "int", "float", "bool", "null", "seq", "map"))
_MERGE = _STD + "merge"
_INT = _STD + "int"
_AS_TEXT = frozenset((_STD + "timestamp", _STD + "value"))
"""Implicit tags whose scalars are kept as the text written (``value`` is PyYAML's ``=``)."""


def parse(text: str) -> Any:
    """The one YAML document of ``text`` as plain data (:func:`~.yamlsafe.load`).

    Raises:
        YamlError: It is not one safe, bounded YAML document.
    """
    try:
        _check_events(text)
    except yaml.YAMLError as err:
        raise _describe(err, text) from None
    loader = SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _check(node)
        return loader.construct_document(node)
    except yaml.YAMLError as err:
        raise _describe(err, text) from None
    except RecursionError:
        raise YamlError(f"refused: nested deeper than {MAX_DEPTH} levels") from None
    finally:
        loader.dispose()


def _shown_tag(tag: str) -> str:
    return "!!" + tag[len(_STD) :] if tag.startswith(_STD) else tag


def _line(node: Node) -> int | None:
    mark = node.start_mark
    return None if mark is None else mark.line + 1


def _children(node: Node) -> list[Node]:
    if isinstance(node, SequenceNode):
        return list(node.value)
    if isinstance(node, MappingNode):
        return [n for pair in node.value for n in pair]
    return []


def _check_tag(node: Node) -> None:
    tag = node.tag
    if isinstance(node, ScalarNode) and (
        tag in _AS_TEXT or (tag == _INT and len(node.value) > MAX_INT_TEXT)
    ):
        node.tag = _STD + "str"
        return
    if tag in _PLAIN_TAGS or (tag == _MERGE and isinstance(node, ScalarNode)):
        return
    raise YamlError(f"refused tag {_shown_tag(tag)} (only plain YAML data is read)", _line(node))


def _check_events(text: str) -> None:
    """Refuse a document nested deeper than :data:`MAX_DEPTH` or with more than
    :data:`MAX_NODES` values, from the parser's events, before any node is built.

    Raises:
        YamlError: It is too deep or too big.
        yaml.YAMLError: It is not YAML.
    """
    loader = SafeLoader(text)
    depth = 0
    values = 0
    try:
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    raise YamlError(
                        f"refused: nested deeper than {MAX_DEPTH} levels", _mark_line(event)
                    )
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
                continue
            elif not isinstance(event, yaml.NodeEvent):
                continue
            values += 1
            if values > MAX_NODES:
                raise YamlError(f"refused: over {MAX_NODES:,} values", _mark_line(event))
    finally:
        loader.dispose()


def _mark_line(event: yaml.Event) -> int | None:
    mark = event.start_mark
    return None if mark is None else mark.line + 1


def _check(root: Node) -> None:
    """Refuse non-plain tags, deep nesting, self-reference and alias bombs.

    One iterative walk over the composed graph: an alias is the same node object met again,
    so each node's expanded size is computed once and summed wherever it is used.
    """
    sizes: dict[int, int] = {}
    on_path: set[int] = set()
    aliases = 0
    stack: list[tuple[Node, int, bool]] = [(root, 1, False)]
    while stack:
        node, depth, finished = stack.pop()
        key = id(node)
        if finished:
            on_path.discard(key)
            size = 1 + sum(sizes[id(c)] for c in _children(node))
            if size > MAX_NODES:
                raise YamlError(
                    f"refused: over {MAX_NODES:,} values once aliases are expanded (alias bomb?)",
                    _line(node),
                )
            sizes[key] = size
            continue
        if key in sizes:
            aliases += 1
            if aliases > MAX_ALIASES:
                raise YamlError(f"refused: more than {MAX_ALIASES:,} aliases", _line(node))
            continue
        if key in on_path:
            raise YamlError("refused: an alias refers to a node that contains it", _line(node))
        if depth > MAX_DEPTH:
            raise YamlError(f"refused: nested deeper than {MAX_DEPTH} levels", _line(node))
        _check_tag(node)
        if not isinstance(node, CollectionNode):
            sizes[key] = 1
            continue
        on_path.add(key)
        stack.append((node, depth, True))
        stack.extend((child, depth + 1, False) for child in reversed(_children(node)))


def _describe(err: yaml.YAMLError, text: str) -> YamlError:
    """One line, with the line number, for any PyYAML error."""
    if isinstance(err, yaml.MarkedYAMLError):
        mark = err.problem_mark or err.context_mark
        problem = " ".join(str(err.problem or err.context or "unreadable").split())
        context = " ".join(str(err.context or "").split())
        if not context or context == problem:
            detail = problem
        elif problem.startswith("but "):  # "expected X" ... "but found Y"
            detail = f"{context}, {problem}"
        else:
            detail = f"{problem} ({context})"
        return YamlError(f"invalid YAML: {detail}", None if mark is None else mark.line + 1)
    position = getattr(err, "position", None)
    line = text[:position].count("\n") + 1 if isinstance(position, int) else None
    reason = getattr(err, "reason", None)
    character = getattr(err, "character", None)
    if reason and isinstance(character, str):
        return YamlError(f"invalid YAML: {reason} (character U+{ord(character):04X})", line)
    first = str(err).strip().splitlines()
    return YamlError(f"invalid YAML: {first[0] if first else type(err).__name__}", line)
