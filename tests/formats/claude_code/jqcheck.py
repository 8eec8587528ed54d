"""Do trajtui's counts of Claude Code sessions match what jq says of the same files?

    python -m tests.formats.claude_code.jqcheck ~/.claude/projects [more paths]

For every session (and subagent) ``trajtui ls --json --no-cache`` lists, the turns, tool
calls, tool errors and tokens it shows are set beside what a jq program (below, written
from the file format, not from trajtui's code) computes over the file; each disagreement is
one line, and the exit code is 1 when there is any. Needs ``jq`` on the PATH.

What jq counts, over the run's own lines (a session file's lines that are not
``isSidechain``; a 1.0.x session's ``SESSION/sidechain`` run: those that are; a subagent's
file: all of them):

* turns: API responses, the distinct ``message.id`` of the assistant lines (a line without
  one is a response of its own);
* tool calls: the ``tool_use`` blocks of the assistant lines;
* tool errors: the ``tool_result`` blocks with ``is_error: true``, and the background
  agents' later answers (a user line ``<task-notification>``) whose status is ``failed``
  and whose ``<tool-use-id>`` is a call of the file;
* tokens: per API response the usage of its last line (input = input + cache creation +
  cache read; output), summed; none when no line has a usage.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

from tests.helpers import jqcheck as jq

JQ = r"""
def own($mode):
  if $mode == "all" then .[]
  elif $mode == "side" then .[] | select(type == "object" and .isSidechain == true)
  else .[] | select(type == "object" and .isSidechain != true) end;
def blocks: .message.content | if type == "array" then .[] | select(type == "object") else empty end;
def text: .message.content
  | if type == "string" then . elif type == "array" then ([.[] | select(type == "object" and .type == "text") | .text | strings] | join("\n")) else "" end;
def counted: type == "object" and ([.input_tokens, .cache_creation_input_tokens, .cache_read_input_tokens, .output_tokens] | any(type == "number"));
def n: if type == "number" and . >= 0 then . else 0 end;
[own($mode)] as $own
| [$own[] | select(.type == "assistant" and (.message | type) == "object")] as $turns
| [$turns[] | blocks | select(.type == "tool_use")] as $calls
| [$calls[] | .id | strings] as $ids
| [$own[] | select(.type == "user" and (.message | type) == "object")] as $us
| ([$us[] | blocks | select(.type == "tool_result" and .is_error == true)] | length) as $errors
| ([$us[] | text | select(ltrimstr("\n") | ltrimstr(" ") | startswith("<task-notification>"))
    | select(test("<status>failed</status>"))
    | (capture("<tool-use-id>(?<id>[^<]*)</tool-use-id>") | .id | gsub("^\\s+|\\s+$"; "")) as $id
    | select($ids | index($id))] | length) as $late
| ($turns | to_entries | map({k: (.value.message.id | strings // ("#" + (.key | tostring))), u: .value.message.usage})) as $resp
| (reduce ($resp[] | select(.u | counted)) as $r ({}; .[$r.k] = $r.u)) as $usage
| {
    turns: ($resp | map(.k) | unique | length),
    tool_calls: ($calls | length),
    tool_errors: ($errors + $late),
    tokens_in: (if ($usage | length) == 0 then null else ([$usage[] | (.input_tokens | n) + (.cache_creation_input_tokens | n) + (.cache_read_input_tokens | n)] | add) end),
    tokens_out: (if ($usage | length) == 0 then null else ([$usage[] | .output_tokens | n] | add) end)
  }
"""


def mode(path: str, ref: str) -> str:
    """Which lines of ``path`` are the run ``ref``'s own."""
    if os.path.basename(path).startswith("agent-"):
        return "all"
    return "side" if ref.endswith("/sidechain") else "main"


def jq_says(path: str, ref: str) -> dict[str, Any]:
    """What the jq program computes over the run ``ref`` of the file at ``path``."""
    args = ["jq", "-c", "-s", "--arg", "mode", mode(path, ref), JQ, path]
    out = subprocess.run(args, capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(out.stdout)
    return result


check = jq.checker(
    "claude-code",
    lambda row: jq_says(row["source"], row["ref"]),
    lambda row: f"{row['ref']} ({os.path.basename(row['source'])})",
)
"""One line per run (``ok`` or what disagrees), disagreements first."""


if __name__ == "__main__":
    sys.exit(jq.main(__doc__, check, "runs", None))
