"""Do trajtui's counts of Codex rollouts match what jq says of the same files?

    python -m tests.formats.codex.jqcheck ~/.codex/sessions [more paths]

For every rollout ``trajtui ls --json --no-cache`` lists, the turns, tool calls, tool
errors and tokens it shows are set beside what a jq program (below, written from the
file format, not from trajtui's code) computes over the file; each disagreement is one
line, and the exit code is 1 when there is any. Needs ``jq`` on the PATH.

What jq counts, over the rollout's own lines (a fork's copied history, from the second
``session_meta`` up to the first line naming the fork's own ``thread_id``, left out):

* turns: user messages (response items) that are not context Codex injected (a known
  ``<tag>``/``# AGENTS.md`` opening, or a ``<tag>…</tag>`` block);
* tool calls: response items of the call types;
* tool errors: calls answered by an output whose exit code is not 0, or that an event says
  failed (``item_completed`` failed, ``exec_command_end`` exit code, ``patch_apply_end``
  not success, ``mcp_tool_call_end`` error), and web searches / image generations whose
  status is ``failed``;
* tokens: the ``token_count`` totals, a count that goes down starting a new one: the sum
  over counts of (last total - the first event's total before its own request).
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from tests.helpers import jqcheck as jq

JQ = r"""
def injected:
  test("^\\s*(<environment_context>|<user_instructions>|<skills_instructions>|<permissions instructions>|<apps_instructions>|<collaboration_mode>|<user_shell_command>|# AGENTS\\.md|# agents\\.md)")
  or ((capture("^\\s*<(?<t>[a-z_]+)[ >]") | .t) as $t | rtrimstr("\n") | rtrimstr(" ") | endswith("</" + $t + ">"))
  // false;
def text: if type == "string" then . else ([.[]? | .text? // empty | strings] | join("\n\n")) end;
def code:
  (if type == "array" then text else . end) as $o
  | if ($o | type) == "string" then
      if ($o | startswith("{")) then ($o | try (fromjson | .metadata.exit_code) catch null)
      else ([$o | .[0:4096] | capture("(?m)^(Exit code: |Process exited with code )(?<c>-?[0-9]+)$") | .c | tonumber] | first)
      end
    elif ($o | type) == "object" then $o.metadata.exit_code
    else null end;
def own:
  . as $all
  | ($all[0].payload.id // $all[0].id) as $me
  | ([range(1; $all | length) | select($all[.].type == "session_meta" and ($all[.].payload.id // $me) != $me)] | first) as $from
  | if $from == null then $all
    else ([range($from + 1; $all | length) | select($all[.].payload.thread_id? == $me)] | first // ($all | length)) as $to
    | $all[0:$from] + $all[$to:]
    end;
def items: .[] | if has("payload") then (select(.type == "response_item") | .payload) elif (.type | type) == "string" then . else empty end;
def events: .[] | select(.type == "event_msg") | .payload;
def failed_ids:
  [events
   | if .type == "item_completed" and .item.status == "failed" then .item.id
     elif .type == "exec_command_end" and ((.exit_code != null and .exit_code != 0) or .status == "failed") then .call_id
     elif .type == "patch_apply_end" and (.success == false or .status == "failed") then .call_id
     elif .type == "mcp_tool_call_end" and (.result.Err != null or .result.Ok.isError == true) then .call_id
     else empty end];
def tokens:
  [events | select(.type == "token_count") | .info | select(. != null and .total_token_usage != null)]
  | reduce .[] as $i ({done: [0, 0], last: null, base: [0, 0]};
      [$i.total_token_usage.input_tokens, $i.total_token_usage.output_tokens] as $t
      | [$i.last_token_usage.input_tokens // 0, $i.last_token_usage.output_tokens // 0] as $l
      | ($i.total_token_usage.total_tokens // ($t[0] + $t[1])) as $size
      | if .last != null and $size < .size then
          .done = [.done[0] + .last[0] - .base[0], .done[1] + .last[1] - .base[1]]
          | .base = [$t[0] - $l[0], $t[1] - $l[1]]
        elif .last == null then .base = [$t[0] - $l[0], $t[1] - $l[1]]
        else . end
      | .last = $t | .size = $size)
  | if .last == null then [null, null]
    else [.done[0] + .last[0] - .base[0], .done[1] + .last[1] - .base[1]] end;
own as $own
| ($own | [items]) as $items
| ($own | failed_ids) as $failed
| ([$items[] | select(.type == "function_call_output" or .type == "custom_tool_call_output" or .type == "tool_search_output") | {key: .call_id, value: .output}] | map(select(.key != null)) | unique_by(.key) | from_entries) as $outputs
| [$items[] | select(.type == "function_call" or .type == "custom_tool_call" or .type == "local_shell_call" or .type == "tool_search_call" or .type == "web_search_call" or .type == "image_generation_call")] as $calls
| ($own | tokens) as $tok
| {
    turns: [$items[] | select(.type == "message" and .role == "user") | .content | text | select(injected | not)] | length,
    tool_calls: $calls | length,
    tool_errors: [$calls[]
      | if (.type == "web_search_call" or .type == "image_generation_call") then select(.status == "failed")
        elif (.call_id as $id | $id != null and ($outputs | has($id))) then
          select((($outputs[.call_id] | code) as $c | $c != null and $c != 0) or (.call_id as $id | $failed | index($id) != null))
        else empty end] | length,
    tokens_in: $tok[0],
    tokens_out: $tok[1]
  }
"""


def jq_says(path: str) -> dict[str, Any]:
    """What the jq program computes over the rollout at ``path``."""
    if path.endswith(".json"):  # a TypeScript-era document: its items as lines
        prog = (
            '[{type: "session_meta", payload: .session}] + [.items[] | {type: "response_item", payload: .}] | '
            + JQ
        )
        args = ["jq", "-c", prog, path]
    else:
        args = ["jq", "-c", "-s", JQ, path]
    out = subprocess.run(args, capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(out.stdout)
    return result


check = jq.checker("codex", lambda row: jq_says(row["source"]), lambda row: str(row["source"]))
"""One line per rollout (``ok`` or what disagrees), disagreements first."""


if __name__ == "__main__":
    sys.exit(jq.main(__doc__, check, "rollouts", None))
