"""Logs where they lie (issue 27, section 4): ``https://`` and ``s3://`` URLs open as paths do,
in every command, through range reads of real servers each test starts on 127.0.0.1 (an
HTTP server that honours ``Range`` and counts what it sends; moto's S3 server): each byte
fetched at most once, a second open fetching only the HEAD, an Inspect ``.eval`` listed from
its central directory and summaries, and a URL that cannot be read one line."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

from tests.formats.inspect.builders import samples, write_eval
from tests.helpers import forked
from tests.helpers.servers import HTTP, SSH, free_port, moto_s3
from tests.helpers.shapes import tool_calls_capture
from tests.helpers.ui import capture_fixture


def trajtui(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return forked.run(
        [sys.executable, "-m", "trajtui", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
    )


def refs(out: str) -> list[str]:
    return [orjson.loads(line)["ref"] for line in out.splitlines()]


def disjoint(ranges: list[tuple[int, int]]) -> bool:
    spans = sorted(ranges)
    return all(a[1] <= b[0] for a, b in itertools.pairwise(spans))


def test_ls_of_an_http_capture_lists_its_runs_each_byte_fetched_once(served: HTTP) -> None:
    path = tool_calls_capture(Path(served.root) / "cap.jsonl")
    url = f"{served.url}/cap.jsonl"
    done = trajtui("ls", "--json", url)
    assert done.returncode == 0, done.stderr
    rows = [orjson.loads(line) for line in done.stdout.splitlines()]
    assert [r["ref"] for r in rows] == ["calls-1", "flagged"]
    assert {r["source"] for r in rows} == {url}  # the URL is the source, not a cache path
    assert served.sent == path.stat().st_size and disjoint(served.ranges)
    served.reset()
    again = trajtui("ls", "--json", url)
    assert refs(again.stdout) == ["calls-1", "flagged"]
    assert served.sent == 0 and served.heads >= 1  # the HEAD alone


def test_a_changed_object_is_fetched_again(served: HTTP) -> None:
    path = tool_calls_capture(Path(served.root) / "cap.jsonl")
    url = f"{served.url}/cap.jsonl"
    assert refs(trajtui("ls", "--json", url).stdout) == ["calls-1", "flagged"]
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(lines[0].replace(b'"calls-1"', b'"calls-2"') + lines[1])
    assert refs(trajtui("ls", "--json", url).stdout) == ["calls-2", "flagged"]


def test_a_big_capture_is_fetched_once_as_it_is_scanned(served: HTTP) -> None:
    path = Path(served.root) / "big.jsonl"
    line = tool_calls_capture(Path(served.root) / "one.jsonl").read_bytes().splitlines()[0]
    with path.open("wb") as f:
        for i in range(20_000):
            f.write(line.replace(b'"calls-1"', f'"run-{i}"'.encode()) + b"\n")
    done = trajtui("ls", "--json", f"{served.url}/big.jsonl")
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 20_000
    assert served.sent == path.stat().st_size and disjoint(served.ranges)


def test_every_command_takes_a_url(served: HTTP, tmp_path: Path) -> None:
    capture_fixture(Path(served.root))
    url = f"{served.url}/results.jsonl"
    listed = refs(trajtui("ls", "--json", url).stdout)
    ref = listed[0]
    show = trajtui("show", url, ref)
    assert show.returncode == 0 and show.stdout.startswith(ref), show.stderr
    grep = trajtui("grep", url, "Amodei")
    assert grep.returncode == 0 and "Amodei" in grep.stdout, grep.stderr
    stats = trajtui("stats", "--json", url)
    assert stats.returncode == 0 and orjson.loads(stats.stdout)["runs"] == len(listed)
    out = tmp_path / "runs.jsonl"
    export = trajtui("export", url, "-o", str(out))
    assert export.returncode == 0, export.stderr
    assert len(out.read_bytes().splitlines()) == len(listed)
    sql = trajtui("sql", "SELECT count(*) AS n FROM runs", url, "--json")
    assert sql.returncode == 0, sql.stderr
    assert str(len(listed)) in sql.stdout


def test_a_url_that_cannot_be_read_is_one_line_and_the_rest_shows(served: HTTP) -> None:
    tool_calls_capture(Path(served.root) / "cap.jsonl")
    tool_calls_capture(Path(served.root) / "secret.jsonl")
    served.deny = "secret"
    down = f"http://127.0.0.1:{free_port()}/cap.jsonl"
    missing, denied = f"{served.url}/nope.jsonl", f"{served.url}/secret.jsonl"
    done = trajtui("ls", down, missing, denied, f"{served.url}/cap.jsonl")
    assert done.returncode == 0
    assert "calls-1" in done.stdout and "flagged" in done.stdout
    said = done.stderr.splitlines()
    assert len(said) == 3, done.stderr
    assert said[0].startswith(f"{down}: cannot connect")
    assert said[1] == f"{missing}: no such object (HTTP 404)"
    assert said[2] == f"{denied}: access denied (HTTP 403)"
    alone = trajtui("ls", missing)
    assert alone.returncode == trajtui("ls", str(Path(served.root) / "nope.jsonl")).returncode == 1
    assert alone.stderr == f"{missing}: no such object (HTTP 404)\n"


def padded_eval(path: Path) -> Path:
    items = samples()
    for s in items:  # big samples, as real ones are: 1 MB of messages each
        s["messages"] = [*s["messages"], {"role": "user", "content": os.urandom(1 << 20).hex()}]
    return write_eval(path, items)


def test_an_eval_log_is_listed_from_its_central_directory_and_summaries(served: HTTP) -> None:
    path = padded_eval(Path(served.root) / "task.eval")
    url = f"{served.url}/task.eval"
    done = trajtui("ls", "--json", url)
    assert done.returncode == 0, done.stderr
    assert len(refs(done.stdout)) == 6
    size = path.stat().st_size
    assert served.sent < size // 20, (served.sent, size, served.ranges)  # not one sample read
    served.reset()
    show = trajtui("show", url, "s1/epoch-1")
    assert show.returncode == 0, show.stderr
    assert served.sent < size // 3  # that sample's member, not the others


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[str]:
    for name in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_DEFAULT_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "no-aws-config"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "no-aws-credentials"))
    with moto_s3() as endpoint:
        monkeypatch.setenv("AWS_ENDPOINT_URL", endpoint)
        yield endpoint


def put(endpoint: str, bucket: str, objects: dict[str, bytes]) -> None:
    import boto3

    client = boto3.client("s3", endpoint_url=endpoint)
    client.create_bucket(Bucket=bucket)
    for key, data in objects.items():
        client.put_object(Bucket=bucket, Key=key, Body=data)


def test_an_s3_prefix_lists_every_object_under_it(s3: str, tmp_path: Path) -> None:
    capture = tool_calls_capture(tmp_path / "cap.jsonl").read_bytes()
    log = padded_eval(tmp_path / "task.eval").read_bytes()
    hostile = "runs/\x1b]0;owned\x07\x1b[31mred.jsonl"
    put(s3, "evals", {"runs/a/results.jsonl": capture, "runs/b/task.eval": log, hostile: capture})
    done = trajtui("ls", "--json", "s3://evals/runs/")
    assert done.returncode == 0, done.stderr
    rows = [orjson.loads(line) for line in done.stdout.splitlines()]
    sources = {r["source"] for r in rows}
    assert "s3://evals/runs/a/results.jsonl" in sources
    assert "s3://evals/runs/b/task.eval" in sources
    assert len(rows) == 2 + 6 + 2
    for ref in ("a/results.jsonl::calls-1", "s3://evals/runs/a/results.jsonl::calls-1"):
        show = trajtui("show", "s3://evals/runs/", ref)  # a reference leads back to its URL
        assert show.returncode == 0 and "calls-1" in show.stdout.splitlines()[0], show.stderr
    plain = trajtui("ls", "s3://evals/runs/")
    assert "\x1b" not in plain.stdout + plain.stderr  # the key's escapes are shown, not run
    assert "␛" in plain.stdout


def test_s3_object_and_missing_bucket(s3: str, tmp_path: Path) -> None:
    put(s3, "evals", {"cap.jsonl": tool_calls_capture(tmp_path / "cap.jsonl").read_bytes()})
    done = trajtui("ls", "s3://no-such-bucket/x.jsonl", "s3://evals/cap.jsonl")
    assert done.returncode == 0 and "calls-1" in done.stdout
    assert done.stderr.startswith("s3://no-such-bucket/x.jsonl: no such bucket")
    assert len(done.stderr.splitlines()) == 1


def test_s3_without_credentials_is_one_line(s3: str) -> None:
    done = trajtui(
        "ls", "s3://evals/cap.jsonl", env={"AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": ""}
    )
    assert done.returncode == 1
    assert done.stderr.startswith("s3://evals/cap.jsonl: no AWS credentials"), done.stderr
    assert len(done.stderr.splitlines()) == 1, done.stderr


def test_an_ssh_path_is_read_with_ssh_config_keys_and_known_hosts(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    path = tool_calls_capture(tmp_path / "data" / "cap.jsonl")
    home = tmp_path / "home"
    with SSH(str(home)) as server:
        env = {"HOME": str(home), "SSH_AUTH_SOCK": ""}
        before = sorted((p.name, p.stat().st_mtime_ns) for p in (home / ".ssh").iterdir())
        url = f"ssh://{SSH.HOST}{path}"
        done = trajtui("ls", "--json", url, env=env)
        assert done.returncode == 0, done.stderr
        assert refs(done.stdout) == ["calls-1", "flagged"]
        assert {orjson.loads(line)["source"] for line in done.stdout.splitlines()} == {url}
        assert server.sent == path.stat().st_size
        missing = trajtui("ls", f"ssh://{SSH.HOST}{tmp_path}/nope.jsonl", env=env)
        assert missing.returncode == 1
        assert missing.stderr == f"ssh://{SSH.HOST}{tmp_path}/nope.jsonl: no such object\n"
        after = sorted((p.name, p.stat().st_mtime_ns) for p in (home / ".ssh").iterdir())
        assert after == before  # nothing written where ssh keeps its own


def test_cache_clear_removes_the_mirrors(served: HTTP) -> None:
    tool_calls_capture(Path(served.root) / "cap.jsonl")
    url = f"{served.url}/cap.jsonl"
    assert trajtui("ls", url).returncode == 0
    cleared = trajtui("cache", "clear")
    assert "removed the mirrors of 1 remote objects" in cleared.stdout, cleared.stdout
    served.reset()
    assert refs(trajtui("ls", "--json", url).stdout) == ["calls-1", "flagged"]
    assert served.sent > 0  # fetched again


def test_an_object_deleted_from_a_prefix_is_no_longer_listed(s3: str, tmp_path: Path) -> None:
    import boto3

    capture = tool_calls_capture(tmp_path / "cap.jsonl").read_bytes()
    other = capture.replace(b'"calls-1"', b'"other-1"').replace(b'"flagged"', b'"other-2"')
    put(s3, "pruned", {"runs/a.jsonl": capture, "runs/b.jsonl": other})
    assert len(refs(trajtui("ls", "--json", "s3://pruned/runs/").stdout)) == 4
    boto3.client("s3", endpoint_url=s3).delete_object(Bucket="pruned", Key="runs/b.jsonl")
    assert refs(trajtui("ls", "--json", "s3://pruned/runs/").stdout) == ["calls-1", "flagged"]


@pytest.fixture
def plain(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """``python -m http.server`` as people serve a folder: index pages, no ``Range``."""
    import functools
    import threading
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    root = tmp_path / "www"
    (root / "logs").mkdir(parents=True)

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=root))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", root
    finally:
        server.shutdown()
        server.server_close()


def test_a_folder_served_by_python_http_server_lists_as_the_folder_does(
    plain: tuple[str, Path],
) -> None:
    """Its index page's links say no size (each is asked for it), and it sends the whole
    file for a range (kept whole: the file is read, not refused)."""
    url, root = plain
    line = tool_calls_capture(root / "one.jsonl").read_bytes().splitlines()[0]
    (root / "one.jsonl").unlink()
    with (root / "logs" / "big.jsonl").open("wb") as f:  # over the size fetched whole at once
        for i in range(8_000):
            f.write(line.replace(b'"calls-1"', f'"run-{i}"'.encode()) + b"\n")
    assert (root / "logs" / "big.jsonl").stat().st_size > 2 << 20
    tool_calls_capture(root / "logs" / "cap.jsonl")
    local = trajtui("ls", "--json", str(root / "logs"))
    done = trajtui("ls", "--json", f"{url}/logs/")
    assert done.returncode == 0 and not done.stderr, done.stderr
    assert (
        sorted(refs(done.stdout)) == sorted(refs(local.stdout)) and len(refs(local.stdout)) > 8_000
    )
    table = trajtui("ls", f"{url}/logs/")
    heads = [x for x in table.stdout.splitlines() if x.startswith("# ")]
    assert heads and all(x.startswith(f"# {url}/logs/") for x in heads), heads
    said = trajtui("validate", f"{url}/logs/").stderr
    assert said.startswith(f"{url}/logs/") and "trajtui" not in said.split(":")[1], said
    none = trajtui("notes", f"{url}/logs/")
    assert none.returncode == 1 and f"{url}/logs/cap.jsonl" in none.stderr, none.stderr
    assert "mirror" not in none.stderr


def test_a_remote_objects_notes_know_it_before_all_of_it_is_fetched(served: HTTP) -> None:
    """Notes find their source by its first and last bytes: a mirror's are fetched for that,
    not read as the zeros of blocks not fetched yet (the notes would be lost on the next
    open, once the object is whole)."""
    from trajtui.core import noteid
    from trajtui.core.io import remote

    path = Path(served.root) / "big.jsonl"
    line = tool_calls_capture(Path(served.root) / "one.jsonl").read_bytes().splitlines()[0]
    path.write_bytes(b"".join(line + b"\n" for _ in range(4_000)))
    assert path.stat().st_size > 2 << 20
    opened = remote.open_url(f"{served.url}/big.jsonl")
    assert opened.path is not None
    assert noteid.fingerprint(opened.path) == noteid.fingerprint(str(path))
    assert served.sent < path.stat().st_size  # (the ends only)
