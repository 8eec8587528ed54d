"""``make remote-check``: trajtui over a real OpenSSH server (Debian's openssh-server), not in
``make test`` (the CI machine has no sshd; installed here with apt-get when missing).

sshd is started on a free port of 127.0.0.1 with a configuration, a host key and a client
key made in a temporary directory (never the machine's own), as this user; trajtui runs with
``HOME`` set to a home holding ``.ssh/config`` (the host's name and port), the key and
``known_hosts``, so it finds them where ssh looks. It checks ``ls --json`` of a capture and
of its directory over ``ssh://`` give what the local path gives, a missing path is one line
with exit code 1, and nothing was written in ``.ssh``. Then sshd is stopped (its pid, no other process).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.helpers.servers import free_port
from tests.helpers.shapes import tool_calls_capture

SSHD = "/usr/sbin/sshd"


def install() -> None:
    if os.path.exists(SSHD):
        return
    print("remote-check: installing openssh-server (apt-get)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(
        ["apt-get", "install", "-y", "-qq", "--no-install-recommends", "openssh-server"],
        check=True,
        env=env,
    )


def trajtui(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(home), "SSH_AUTH_SOCK": "", "XDG_CACHE_HOME": str(home / "c")}
    return subprocess.run(
        [sys.executable, "-m", "trajtui", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def main() -> int:
    install()
    with tempfile.TemporaryDirectory(prefix="trajtui-sshd-") as tmp:
        root = Path(tmp)
        home, etc, data = root / "home", root / "etc", root / "data"
        for d in (home / ".ssh", etc, data):
            d.mkdir(parents=True)
        os.chmod(home / ".ssh", 0o700)
        capture = tool_calls_capture(data / "cap.jsonl")
        keygen = ["ssh-keygen", "-q", "-t", "ed25519", "-N", ""]
        subprocess.run([*keygen, "-f", str(etc / "host")], check=True)
        subprocess.run([*keygen, "-f", str(home / ".ssh" / "id_ed25519")], check=True)
        shutil.copy(home / ".ssh" / "id_ed25519.pub", etc / "authorized_keys")
        port = free_port()
        (etc / "sshd_config").write_text(
            f"Port {port}\nListenAddress 127.0.0.1\nHostKey {etc / 'host'}\n"
            f"AuthorizedKeysFile {etc / 'authorized_keys'}\nPidFile {etc / 'sshd.pid'}\n"
            "PasswordAuthentication no\nKbdInteractiveAuthentication no\nUsePAM no\n"
            "StrictModes no\nSubsystem sftp internal-sftp\n"
        )
        host_key = (etc / "host.pub").read_text().split()
        (home / ".ssh" / "known_hosts").write_text(
            f"[127.0.0.1]:{port} {host_key[0]} {host_key[1]}\n"
        )
        (home / ".ssh" / "config").write_text(
            f"Host sshd-check\n  HostName 127.0.0.1\n  Port {port}\n  User {os.environ.get('USER') or 'root'}\n"
        )
        os.makedirs("/run/sshd", exist_ok=True)  # (sshd's privilege separation directory)
        sshd = subprocess.Popen([SSHD, "-D", "-e", "-f", str(etc / "sshd_config")])
        try:
            time.sleep(1.0)
            before = sorted((p.name, p.stat().st_mtime_ns) for p in (home / ".ssh").iterdir())
            local = trajtui(home, "ls", "--json", str(capture))
            failures = []
            for url in (f"ssh://sshd-check{capture}", f"ssh://sshd-check{data}/"):
                got = trajtui(home, "ls", "--json", url)
                want = [line.replace(str(capture), "") for line in local.stdout.splitlines()]
                seen = [
                    line.replace(url.rstrip("/") + ("/cap.jsonl" if url.endswith("/") else ""), "")
                    for line in got.stdout.splitlines()
                ]
                if got.returncode != 0 or seen != want:
                    failures.append(f"{url}: exit {got.returncode}: {got.stderr.strip()}")
                else:
                    print(f"remote-check: {url}: {len(seen)} runs, as the local path lists them")
            missing = trajtui(home, "ls", f"ssh://sshd-check{data}/nope.jsonl")
            if missing.returncode != 1 or len(missing.stderr.splitlines()) != 1:
                failures.append(f"a missing path: exit {missing.returncode}: {missing.stderr!r}")
            else:
                print(f"remote-check: a missing path: {missing.stderr.strip()}")
            after = sorted((p.name, p.stat().st_mtime_ns) for p in (home / ".ssh").iterdir())
            if after != before:
                failures.append(".ssh was written to")
        finally:
            sshd.send_signal(signal.SIGTERM)
            sshd.wait(10)
    for f in failures:
        print("remote-check: FAILED:", f)
    print("remote-check:", "failed" if failures else "passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
