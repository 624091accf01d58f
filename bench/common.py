"""What the bench scripts share: paths, the Django setup, their PostgreSQL databases, bench
users and their sessions, a daphne server on a free port, Redis clean-up and their section
of bench/RESULTS.md.

The scripts run as ``python bench/<name>.py``, so this directory is first on sys.path and
they ``import common``.
"""

from __future__ import annotations

import contextlib
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NoReturn
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "RESULTS.md"
SPORTS = ("football", "basketball", "baseball", "soccer", "hockey")
HOST = "127.0.0.1"

# The scripts run as bench/<name>.py: what they share with the tests (devtools)
# imports from the root.
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from devtools.launcher import (  # noqa: E402  (importable once the root is on sys.path)
    ServerProcess,
    running,
)
from devtools.launcher import daphne_command as daphne_command  # noqa: E402  (the scripts' name)
from devtools.launcher import free_port as free_port  # noqa: E402

# --- Django -----------------------------------------------------------------------------


def django_setup(
    configure: Callable[[], None] | None = None, migrate: Iterable[str] = ("default",)
) -> None:
    """Set up the project's Django (``configure`` runs first, to adjust its settings), then
    migrate the databases named in ``migrate``."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings")
    os.environ.setdefault("BUDGETS", "off")
    os.environ.setdefault("TRUST_ACCOUNT_AGE_HOURS", "0")
    if configure is not None:
        configure()
    import django

    django.setup()
    from django.core.management import call_command

    for alias in migrate:
        call_command("migrate", database=alias, verbosity=0)


# --- PostgreSQL databases of their own --------------------------------------------------


def database_url(url: str, name: str, script: str) -> str:
    """``url`` (PostgreSQL, or exit) pointed at database ``name``."""
    parts = urlsplit(url)
    if parts.scheme not in {"postgres", "postgresql", "pgsql"}:
        sys.exit(f"{script} needs PostgreSQL: set DATABASE_URL=postgres://...")
    return urlunsplit(parts._replace(path=f"/{name}"))


def _admin(url: str) -> Any:
    import psycopg

    admin_url = urlunsplit(urlsplit(url)._replace(path="/postgres"))
    return psycopg.connect(admin_url, autocommit=True)


def recreate_database(url: str, name: str) -> None:
    with _admin(url) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(url: str, name: str) -> None:
    with _admin(url) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def drop_databases(url: str, *names: str) -> None:
    """Close Django's connections, then drop the databases."""
    from django.db import connections

    connections.close_all()
    for name in names:
        drop_database(url, name)


# --- Users and sessions -----------------------------------------------------------------


def new_user(username: str) -> Any:
    """An unsaved bench user (``username@bench.example``) who cannot sign in by password."""
    from project.accounts.models import User

    user = User(username=username, email=f"{username}@bench.example", name=username)
    user.set_unusable_password()
    return user


def session_for(user: Any) -> str:
    """The key of a new signed-in session of ``user`` (the ``sessionid`` cookie)."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.save()
    assert store.session_key is not None
    return str(store.session_key)


def approved_nominations(
    nominator: Any, sports: Sequence[str], identities: Sequence[str], **player_fields: Any
) -> list[Any]:
    """Approved nominations by ``nominator`` of new players "Bench Player <i>", the i-th in
    ``sports[i]`` with normalized identity ``identities[i]``."""
    from project.scouting.models import Nomination, NominationStatus, Player
    from project.scouting.services.nominations import player_search_key

    searched = {"position": "Forward", "nationality": "Nowhere", "club": "Bench FC"}
    players = Player.objects.bulk_create(
        [
            Player(
                name=f"Bench Player {i}",
                sport=sport,
                normalized_identity=identity,
                search_key=player_search_key(name=f"Bench Player {i}", **searched),
                **searched,
                **player_fields,
            )
            for i, (sport, identity) in enumerate(zip(sports, identities, strict=True))
        ]
    )
    return Nomination.objects.bulk_create(
        [
            Nomination(
                player=player,
                nominated_by=nominator,
                sport=player.sport,
                status=NominationStatus.APPROVED,
            )
            for player in players
        ]
    )


# --- Servers ----------------------------------------------------------------------------


@contextlib.contextmanager
def server_process(command: list[str], port: int, env: dict[str, str]) -> Iterator[ServerProcess]:
    """``command`` running until the block ends, from the moment it accepts connections on port
    (devtools/launcher.py: the browser tests and live-layer tests run daphne the same
    way)."""
    # Benchmarks vote far beyond a person's budgets, from fresh accounts (README: BUDGETS).
    env = {"BUDGETS": "off", "TRUST_ACCOUNT_AGE_HOURS": "0", **env}
    with running(command, port, env, output=None) as server:
        yield server


@contextlib.contextmanager
def private_redis(name: str, *, appendonly: bool = False) -> Iterator[ServerProcess]:
    """A redis-server of the run's own on a free port (``redis://HOST:<port>/0``): nothing
    another job does to the machine's shared Redis (a FLUSHDB, a restart, its load) reaches
    the figures, and the run may restart it."""
    directory = tempfile.mkdtemp(prefix=f"{name}-redis-")
    port = free_port()
    command = ["redis-server", "--port", str(port), "--bind", HOST, "--dir", directory]
    command += ["--save", ""]
    if appendonly:
        command += ["--appendonly", "yes", "--appendfsync", "everysec"]
    server = ServerProcess(command, port, os.environ, name="redis", stop_timeout=5)
    server.start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(directory, ignore_errors=True)


def forget_keys(*patterns: str) -> None:
    """Delete the Redis keys (REDIS_URL; none set: nothing to do) matching the patterns."""
    url = os.environ.get("REDIS_URL")
    if not url:
        return
    import redis

    client = redis.Redis.from_url(url)
    for pattern in patterns:
        keys = list(client.scan_iter(pattern, count=1000))
        if keys:
            client.delete(*keys)
    client.close()


# --- CPU by process ---------------------------------------------------------------------

_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_by_component(named: dict[int, str]) -> dict[int, tuple[str, float]]:
    """Every process on the machine: pid -> (component, CPU seconds so far, user + system).
    Components: ``named`` pids first (e.g. the bench's own processes), then by program
    (postgres, redis, nginx, pgbouncer, the HTTP pool's gunicorn or uvicorn, the daphne
    processes), the rest "other". ``cpu_spent`` of two samples is what each component took
    in between."""
    sample: dict[int, tuple[str, float]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        pid = int(entry.name)
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        seconds = (int(fields[11]) + int(fields[12])) / _TICK
        comm = stat[stat.find("(") + 1 : stat.rfind(")")]
        if pid in named:
            name = named[pid]
        elif comm.startswith("postgres") or cmdline.startswith("postgres"):
            name = "postgres"
        elif comm.startswith("redis"):
            name = "redis"
        elif comm == "nginx":
            name = "nginx"
        elif comm == "pgbouncer":
            name = "pgbouncer"
        elif "gunicorn" in cmdline or "uvicorn" in cmdline:
            name = "http pool"
        elif "daphne" in cmdline:
            name = "daphne (/ws/)"
        else:
            name = "other"
        sample[pid] = (name, seconds)
    return sample


def descendants(pid: int) -> list[int]:
    """Every process under ``pid`` (from /proc's parent links)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        parent = int(stat[stat.rfind(")") + 2 :].split()[1])
        parents.setdefault(parent, []).append(int(entry.name))
    found, waiting = [], [pid]
    while waiting:
        children = parents.get(waiting.pop(), [])
        found += children
        waiting += children
    return found


def cpu_spent(
    before: dict[int, tuple[str, float]], after: dict[int, tuple[str, float]]
) -> dict[str, float]:
    """CPU seconds by component between two ``cpu_by_component`` samples: each process
    alive at the second one, from the first one or from its start (a process that ended
    in between is not counted)."""
    spent: dict[str, float] = {}
    for pid, (name, seconds) in after.items():
        earlier = before.get(pid)
        spent[name] = spent.get(name, 0.0) + seconds - (earlier[1] if earlier else 0.0)
    return spent


# --- Report -----------------------------------------------------------------------------


# The bench's clients stand for phones and browsers, each on a CPU of its own. On this shared
# 2-core machine the kernel shares the CPU between sessions first (sched_autogroup): the
# servers' session, PostgreSQL's, Redis's and the bench's. The bench's one thread reading
# 1,000 sockets got about a third of a core: it read the frames seconds late (1,000 sockets'
# receive queues held 80 MB) and vote-to-screen measured the bench's own queue, not the
# server's (bench/votes.py). So the bench's session runs ahead of the others (its
# autogroup's nice). The clients' CPU is still counted, and taken from the servers.
CLIENT_NICE = -10
AUTOGROUP = Path("/proc/self/autogroup")


def _autogroups() -> bool:
    try:
        enabled = Path("/proc/sys/kernel/sched_autogroup_enabled").read_text().strip() == "1"
    except OSError:
        return False
    return enabled and AUTOGROUP.exists()


def _autogroup_nice(text: str) -> str | None:
    """The nice in ``/proc/self/autogroup`` ("/autogroup-85 nice 0"), or None when the process
    is in no autogroup: the kernel then prints nothing (a process placed by a cgroup with a CPU
    controller of its own, as in CI's container), and a nice written there would change
    nothing."""
    fields = text.split()
    if len(fields) == 3 and fields[1] == "nice" and fields[2].lstrip("-").isdigit():
        return fields[2]
    return None


@contextlib.contextmanager
def client_priority() -> Iterator[bool]:
    """Run this session's processes (the bench's; the servers start sessions of their own) at
    ``CLIENT_NICE`` meanwhile; yield whether that was possible (autogroups on, root or
    CAP_SYS_NICE). Without autogroups every thread competes on its own, and the priority is
    left alone (the report says so), as it is with ``BENCH_CLIENTS_FIRST=0`` (for an A/B).
    The nice belongs to the whole session (the shell the bench runs from): two benches run at
    once from one shell share it, and each puts back what it found, so the one finishing last
    may leave it raised (``echo 0 > /proc/self/autogroup`` from that shell lowers it)."""
    if not _autogroups() or os.environ.get("BENCH_CLIENTS_FIRST") == "0":
        yield False
        return
    try:
        before = _autogroup_nice(AUTOGROUP.read_text())
        if before is not None:
            AUTOGROUP.write_text(str(CLIENT_NICE))
    except OSError:  # not root (EACCES/EPERM), or a /proc that will not have it
        before = None
    if before is None:
        yield False
        return
    try:
        yield True
    finally:
        with contextlib.suppress(OSError):
            AUTOGROUP.write_text(before)


def clients_note(raised: bool) -> str:
    """What the report says of the clients' priority (``client_priority``)."""
    if raised:
        return (
            "The bench's clients ran ahead of the servers (their session's autogroup at nice "
            f"{CLIENT_NICE}; bench/common.py `client_priority`), as devices with CPUs of their "
            "own would; what they spent was taken from the servers."
        )
    return (
        "The bench's clients were level with the servers (`BENCH_CLIENTS_FIRST=0`, no "
        "autogroups, or not root): on a saturated machine they read late, and the times "
        "include their own queue."
    )


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def machine() -> str:
    """The machine a run was made on: cores, CPU model and Python."""
    cpu = platform.machine()
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return f"{os.cpu_count()} cores ({cpu}), Python {platform.python_version()}"


def commit() -> str:
    """The commit the run measured (``-dirty`` with uncommitted changes), or ``unknown``."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(["git", "diff", "--quiet", "HEAD"], cwd=ROOT, check=False)
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("-dirty" if dirty.returncode else "")


def run_header(*, now: datetime | None = None) -> str:
    """The line that says which run a section reports: when, at which commit, on which
    machine, under which load, by which script."""
    script = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else "the bench"
    stamp = f"{(now or datetime.now(UTC)):%Y-%m-%d %H:%M} UTC"
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    return (
        f"Run of {stamp} at `{commit()}` (`bench/{script}`) on {machine()}; "
        f"load average {load} at its end."
    )


def write_section(section: str, text: str, *, now: datetime | None = None) -> None:
    """Replace ``section`` of bench/RESULTS.md with this run's report ``text`` under its
    ``run_header``: the file holds each bench's latest run (earlier runs are in git's history
    of the file, the decisions they led to in docs/decisions.md). The section is appended
    when missing; every other section is kept as it is."""
    current = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else "# Bench results\n"
    body = text.strip("\n")
    if body.startswith(section):
        body = body[len(section) :].strip("\n")
    entry = f"{section}\n\n{run_header(now=now)}\n\n{body}\n"
    start = current.find(f"\n{section}\n")
    if start == -1:
        updated = current.rstrip("\n") + f"\n\n{entry}"
    else:
        following = current.find("\n## ", start + len(section) + 1)
        rest = current[following + 1 :] if following != -1 else ""
        updated = current[: start + 1] + entry + ("\n" + rest if rest else "")
    RESULTS.write_text(updated.rstrip("\n") + "\n", encoding="utf-8")
    print(f"Written to {RESULTS.relative_to(ROOT)}")


def load_line(before: Sequence[float], after: Sequence[float]) -> str:
    """The report's line of the machine's load averages, taken before and after the run."""
    return (
        f"- load average (1, 5, 15 min) before: {', '.join(f'{v:.2f}' for v in before)}"
        f"; after: {', '.join(f'{v:.2f}' for v in after)}"
    )


def check_lines(checks: dict[str, bool]) -> list[str]:
    """A report's checks, one line each with its verdict."""
    return [f"- {name}: {'PASS' if passed else 'FAIL'}" for name, passed in checks.items()]


def finish(section: str, text: str, ok: bool, *, write: bool) -> NoReturn:
    """Print the report, write it as ``section`` of bench/RESULTS.md unless told not to, and
    exit 0 when it passed, 1 when not."""
    print(text)
    if write:
        write_section(section, text)
    sys.exit(0 if ok else 1)
