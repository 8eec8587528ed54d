"""Statistics across runs (``trajtui stats`` and the stats screen): outcomes, scores,
pass@k, durations, costs, tokens, tool calls, the figures each format adds
(:mod:`.parts`), grouped by a field.

Headless (no textual/rich/click), and no format imported: what it counts is read from the
neutral model (:mod:`trajtui.core.model`), so every format that fills a field is counted.
"""
