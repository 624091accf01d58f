"""The production shape on one machine: nginx in front of an HTTP pool and a websocket pool.

``make serve-prod`` (``manage.py serve_prod``), ``bench/votes.py`` and the end-to-end test of
the shape all start it from here, so what is measured and tested is what is served:

* nginx (Debian's package) on ``port``, with a config generated into a run directory (never
  the system one), in the foreground (``daemon off``): ``/ws/`` to the websocket pool, every
  other path to the HTTP pool;
* the HTTP pool: gunicorn with ``http_workers`` gthread workers under WSGI (project.wsgi), the
  server chosen by measurement (docs/decisions.md#http-pool-server); ``uvicorn`` (gunicorn
  with uvicorn workers, ASGI) and ``daphne`` (one daphne process per worker) stay selectable
  for the comparison;
* the websocket pool: ``ws_processes`` daphne processes (the live layer writes frames through
  daphne's protocol, realtime/connection.py);
* the background worker: exactly one ``manage.py run_worker`` (emails, periodic jobs);
* with ``with_pgbouncer``, a PgBouncer in transaction mode (project/ops/pgbouncer.py, its config
  in the run directory) between the app processes and PostgreSQL: their ``DATABASE_URL`` names
  it and ``DB_POOLER=transaction`` is set for them;
* each server process serves its Prometheus metrics on a port of its own on HOST (the HTTP
  pool's arbiter the sum of its workers', project/ops/gunicorn_conf.py; each daphne process
  its own), never through nginx, and answers ``/healthz`` and ``/readyz`` (project/health.py);
* supervisord (its config and control socket in the run directory) runs them all: one that
  exits is started again (and its log says so), ``supervisorctl`` restarts one at a time
  (``Shape.ctl``), and Ctrl-C or SIGTERM stops every one, nginx first: nginx by SIGQUIT
  (it closes its port and answers the requests it is proxying), the others by SIGTERM: a
  daphne process then drains its sockets (realtime/drain.py) and the HTTP pool finishes its
  requests.
"""

from __future__ import annotations

import contextlib
import math
import os
import pwd
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from project.ops.nginx import render_site, server_hosts
from project.ops.pgbouncer import Bouncer

ROOT = Path(__file__).resolve().parent.parent.parent
HOST = "127.0.0.1"
HTTP_SERVERS = ("gthread", "uvicorn", "daphne")
# How long nginx's old workers, stopping gracefully or replaced by a reload, wait for their
# open connections (the requests they are proxying, websockets) before they close them
# (worker_shutdown_timeout), at least: a shape whose daphne processes hand their sockets over
# in a longer window waits for that (Shape.nginx_shutdown_seconds); supervisord waits longer
# before it kills nginx.
NGINX_SHUTDOWN_SECONDS = 5


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def nginx_binary() -> str:
    found = shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if Path(p).exists()), None
    )
    if found is None:
        raise RuntimeError("nginx is missing: `make nginx` installs Debian's package")
    return found


def daphne(port: int) -> list[str]:
    """One daphne process serving project.asgi on HOST:port behind the proxy."""
    # No --proxy-headers: the app reads the forwarded address itself, from TRUSTED_PROXIES.
    # A handshake may wait up to 30 s (daphne's default: 5) for the application to accept:
    # when a crowd (re)connects at once, a slow accept beats a reset that makes every client
    # of it reconnect again.
    command = [sys.executable, "-m", "daphne", "-v", "0", "--websocket_connect_timeout", "30"]
    return [*command, "-b", HOST, "-p", str(port), "project.asgi:application"]


@dataclass
class Shape:
    """Ports and sizes of one production shape; ports left at 0 are picked free."""

    port: int = 8080
    http_server: str = "gthread"
    http_workers: int = 2
    http_threads: int = 16
    ws_processes: int = 2
    run_dir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="scoutvote-")))
    http_ports: list[int] = field(default_factory=list)
    ws_ports: list[int] = field(default_factory=list)
    bouncer: Bouncer | None = None
    # Where each process (by its program name) serves its metrics on HOST: the HTTP pool's
    # arbiter and each daphne process; ``metrics_port`` numbers them from there, in program
    # order (0: free ports).
    metrics_port: int = 0
    metrics_ports: dict[str, int] = field(default_factory=dict)
    # The balancers in front of this node (addresses or CIDRs; NGINX_TRUSTED_BALANCERS, comma
    # separated): nginx takes the client's address from their X-Real-IP.
    balancers: tuple[str, ...] = field(
        default_factory=lambda: tuple(
            b.strip() for b in os.environ.get("NGINX_TRUSTED_BALANCERS", "").split(",") if b.strip()
        )
    )
    # The hosts nginx serves (DJANGO_ALLOWED_HOSTS, as the app reads it): a request for
    # another is closed unanswered (444) but for the health paths; none: every host.
    hosts: tuple[str, ...] = field(
        default_factory=lambda: server_hosts(os.environ.get("DJANGO_ALLOWED_HOSTS", ""))
    )
    # False: no process exports metrics (no metrics port, no multiprocess files, no delivery
    # probe), as ``make run`` serves; bench/votes.py --compare-metrics weighs their cost.
    metrics: bool = True
    # Seconds a daphne process takes to drain on SIGTERM (REALTIME_DRAIN_SECONDS, set for each
    # one) and the HTTP pool's workers to finish their requests (gunicorn's graceful timeout);
    # supervisord waits a little longer before it kills either.
    drain_seconds: float = field(
        default_factory=lambda: float(os.environ.get("REALTIME_DRAIN_SECONDS") or 10)
    )
    graceful_seconds: float = 30

    def __post_init__(self) -> None:
        if self.http_server not in HTTP_SERVERS:
            raise ValueError(f"http_server must be one of {HTTP_SERVERS}")
        if self.port == 0:
            self.port = free_port()
        if not self.http_ports:
            # gunicorn listens on one port for all its workers; daphne needs one per process.
            count = self.http_workers if self.http_server == "daphne" else 1
            self.http_ports = [free_port() for _ in range(count)]
        if not self.ws_ports:
            self.ws_ports = [free_port() for _ in range(self.ws_processes)]
        if not self.metrics_ports:
            names = [*self._http_names(), *self._ws_names()]
            self.metrics_ports = {
                name: self.metrics_port + i if self.metrics_port else free_port()
                for i, name in enumerate(names)
            }

    def _http_names(self) -> list[str]:
        if self.http_server == "daphne":
            return [f"http{i + 1}" for i in range(len(self.http_ports))]
        return ["http"]

    def _ws_names(self) -> list[str]:
        return [f"ws{i + 1}" for i in range(len(self.ws_ports))]

    @property
    def multiproc_dir(self) -> Path:
        """prometheus_client's multiprocess directory of the gunicorn pool (emptied at its
        start by project/ops/gunicorn_conf.py)."""
        return self.run_dir / "prometheus"

    def metrics_url(self, name: str) -> str:
        return f"http://{HOST}:{self.metrics_ports[name]}/metrics"

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def with_pgbouncer(self, database_url: str, pool_size: int = 20) -> Shape:
        """The app processes reach ``database_url``'s server through a PgBouncer of this run
        with ``pool_size`` server connections per database (PgBouncer's default_pool_size)."""
        self.bouncer = Bouncer(database_url, pool_size=pool_size, run_dir=self.run_dir)
        return self

    # --- nginx ----------------------------------------------------------------------------

    def nginx_conf(self) -> str:
        run = self.run_dir
        # As root, nginx's workers would otherwise drop to "nobody", who cannot write the
        # temp directories in the run directory: keep them as the user who started it.
        user = f"user {pwd.getpwuid(os.geteuid()).pw_name};\n" if os.geteuid() == 0 else ""
        site = render_site(
            listen=f"{HOST}:{self.port} backlog=4096",
            http_servers=[f"{HOST}:{port}" for port in self.http_ports],
            ws_servers=[f"{HOST}:{port}" for port in self.ws_ports],
            balancers=self.balancers,
            hosts=self.hosts,
        )
        site = textwrap.indent(site, "    ")
        return f"""# Generated by project/ops/prodshape.py for this run: not the system's nginx.
{user}daemon off;
worker_processes auto;
worker_shutdown_timeout {self.nginx_shutdown_seconds}s;
pid {run}/nginx.pid;
error_log stderr warn;

events {{
    worker_connections 8192;
}}

http {{
    access_log off;
    client_body_temp_path {run}/client_body;
    proxy_temp_path {run}/proxy;
    fastcgi_temp_path {run}/fastcgi;
    uwsgi_temp_path {run}/uwsgi;
    scgi_temp_path {run}/scgi;

{site}}}
"""

    # --- processes ------------------------------------------------------------------------

    def _metrics_env(self, name: str, **extra: str) -> list[str]:
        """``env`` setting a process's metrics port (and ``extra``) before its command; a
        daphne process is never in multiprocess mode, whatever the caller's environment."""
        if not self.metrics:
            return ["env", "-u", "PROMETHEUS_MULTIPROC_DIR", "-u", "METRICS_PORT"]
        settings = [f"METRICS_PORT={self.metrics_ports[name]}", f"METRICS_ADDR={HOST}"]
        unset = [] if extra else ["-u", "PROMETHEUS_MULTIPROC_DIR"]
        return ["env", *unset, *settings, *(f"{k}={v}" for k, v in extra.items())]

    def http_commands(self) -> dict[str, list[str]]:
        python = sys.executable
        if self.http_server == "daphne":
            return {
                name: [*self._metrics_env(name), *daphne(port)]
                for name, port in zip(self._http_names(), self.http_ports, strict=True)
            }
        command = self._metrics_env("http", PROMETHEUS_MULTIPROC_DIR=str(self.multiproc_dir))
        command += [python, "-m", "gunicorn", "-c", "python:project.ops.gunicorn_conf"]
        command += ["--bind", f"{HOST}:{self.http_ports[0]}"]
        command += ["--workers", str(self.http_workers), "--backlog", "4096"]
        command += ["--forwarded-allow-ips", HOST, "--log-level", "warning"]
        command += ["--graceful-timeout", f"{self.graceful_seconds:g}"]
        if self.http_server == "gthread":
            command += ["--worker-class", "gthread", "--threads", str(self.http_threads)]
            command += ["--keep-alive", "75", "project.wsgi:application"]
        else:
            command += ["--worker-class", "uvicorn.workers.UvicornWorker"]
            command += ["--keep-alive", "75", "project.asgi:application"]
        return {"http": command}

    def ws_commands(self) -> dict[str, list[str]]:
        drain = f"REALTIME_DRAIN_SECONDS={self.drain_seconds:g}"
        return {
            name: [*self._metrics_env(name), drain, *daphne(port)]
            for name, port in zip(self._ws_names(), self.ws_ports, strict=True)
        }

    def processes(self) -> dict[str, list[str]]:
        """Every process of the shape by its name, in the order they start (supervisord
        stops them in the reverse order, one program or group at a time: nginx first, then
        the websocket processes together, the HTTP pool, the worker)."""
        # Through the launcher (project/ops/nginx_start.py): the workers an earlier master of
        # this run left behind (it was killed with SIGKILL) let go of the port first.
        nginx = [sys.executable, "-m", "project.ops.nginx_start", "--run-dir", str(self.run_dir)]
        nginx += ["--listen", f"{HOST}:{self.port}", "--wait", str(self.nginx_shutdown_seconds)]
        nginx += ["--", nginx_binary(), "-e", "stderr", "-p", str(self.run_dir)]
        nginx += ["-c", str(self.run_dir / "nginx.conf")]
        worker = [sys.executable, "manage.py", "run_worker"]
        bouncer = {"pgbouncer": self.bouncer.command()} if self.bouncer is not None else {}
        return {
            **bouncer,
            "worker": worker,
            **self.http_commands(),
            **self.ws_commands(),
            "nginx": nginx,
        }

    @property
    def supervisor_conf(self) -> Path:
        return self.run_dir / "supervisord.conf"

    @property
    def supervisor_socket(self) -> Path:
        return self.run_dir / "supervisor.sock"

    def program(self, name: str) -> str:
        """The name ``supervisorctl`` knows a process by: the daphne /ws/ processes form the
        group ``ws`` (``ws:ws1``), stopped together at shutdown; the others stand alone."""
        return f"ws:{name}" if name in self._ws_names() else name

    def supervisord_conf(self) -> str:
        run = self.run_dir
        # As root, supervisord asks to be told so (its children run as the same user).
        user = "user=root\n" if os.geteuid() == 0 else ""
        sections = [
            f"""; Generated by project/ops/prodshape.py for this run.
[supervisord]
{user}nodaemon=true
logfile={run}/supervisord.log
logfile_maxbytes=10MB
logfile_backups=1
pidfile={run}/supervisord.pid
childlogdir={run}
directory={ROOT}

[unix_http_server]
file={self.supervisor_socket}
chmod=0700

[rpcinterface:supervisor]
supervisor.rpcinterface_factory = supervisor.rpcinterface:make_main_rpcinterface

[supervisorctl]
serverurl=unix://{self.supervisor_socket}
"""
        ]
        ws_names = self._ws_names()
        processes = self.processes()
        priority = {name: 100 + 100 * order for order, name in enumerate(processes)}
        if ws_names:
            programs = ",".join(ws_names)
            sections.append(f"[group:ws]\nprograms={programs}\npriority={priority[ws_names[0]]}\n")
        for name, command in processes.items():
            # nginx stops gracefully (QUIT): it closes its port at once, so a balancer sends
            # what comes next to another node, and finishes the requests it is proxying
            # (a vote in flight is answered, not cut into a 502), up to its shutdown timeout.
            stop_signal = "QUIT" if name == "nginx" else "TERM"
            if name == "nginx":
                stop_wait = self.nginx_shutdown_seconds + 5.0
            elif name in ws_names:
                stop_wait = self.drain_seconds + 5
            elif name.startswith("http"):
                stop_wait = self.graceful_seconds + 5
            else:
                stop_wait = 10
            # nginx retries a busy port for about 2.5 s before it exits: it counts as started
            # only after that, so a port it cannot bind ends in FATAL after a few tries
            # (visible in `supervisorctl status`) rather than a restart loop that shows it
            # RUNNING between failures.
            start_secs, start_retries = (5, 3) if name == "nginx" else (1, 100)
            # supervisord expands %(...)s in a command: a literal % is written twice.
            line = shlex.join(command).replace("%", "%%")
            sections.append(
                f"""[program:{name}]
command={line}
directory={ROOT}
priority={priority[name]}
autostart=true
autorestart=true
startsecs={start_secs}
startretries={start_retries}
stopsignal={stop_signal}
stopwaitsecs={stop_wait:.0f}
killasgroup=true
redirect_stderr=true
stdout_logfile=/dev/stdout
stdout_logfile_maxbytes=0
"""
            )
        return "\n".join(sections)

    def write(self) -> Path:
        """Write nginx.conf and supervisord.conf into the run directory; return the latter."""
        self.run_dir.mkdir(parents=True, exist_ok=True)
        for temp in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (self.run_dir / temp).mkdir(exist_ok=True)
        (self.run_dir / "nginx.conf").write_text(self.nginx_conf(), encoding="utf-8")
        self.supervisor_conf.write_text(self.supervisord_conf(), encoding="utf-8")
        return self.supervisor_conf

    def supervisor_command(self) -> list[str]:
        """supervisord in the foreground with this run's configuration (written now)."""
        conf = self.write()
        return [sys.executable, "-m", "supervisor.supervisord", "-c", str(conf)]

    def ctl(self, *arguments: str) -> list[str]:
        """A ``supervisorctl`` command for this run: ``shape.ctl("restart", "ws:ws1")``."""
        control = [sys.executable, "-m", "supervisor.supervisorctl"]
        return [*control, "-c", str(self.supervisor_conf), *arguments]

    def control(self, *arguments: str, timeout: float = 60) -> str:
        """Run ``supervisorctl`` with ``arguments``; its output (it fails on an error)."""
        done = subprocess.run(  # noqa: S603
            self.ctl(*arguments), cwd=ROOT, capture_output=True, text=True, timeout=timeout
        )
        if done.returncode != 0:
            raise RuntimeError(f"supervisorctl {' '.join(arguments)}: {done.stdout}{done.stderr}")
        return done.stdout

    def pid(self, name: str) -> int:
        """The pid supervisord holds for process ``name`` (0 while it is not running)."""
        return int(self.control("pid", self.program(name)).strip() or 0)

    @property
    def nginx_shutdown_seconds(self) -> int:
        """nginx's ``worker_shutdown_timeout``: NGINX_SHUTDOWN_SECONDS, or past the daphne
        processes' window when that is longer, so that the sockets a reload leaves on the old
        workers are handed over (``reload_nginx``) before the rest would be cut."""
        return max(NGINX_SHUTDOWN_SECONDS, math.ceil(self.drain_seconds) + 1)

    def reload_nginx(self, timeout: float = 60) -> None:
        """Reload nginx's configuration (HUP) and move the websockets its old workers hold to
        the new ones: every daphne process closes the sockets it has with 1001, spread over
        its window, and keeps serving (SIGUSR1, realtime/drain.py); their clients come back
        through the new workers and resume. Returns once the old workers have exited."""
        master = self.pid("nginx")
        old = set(_children(master))
        self.control("signal", "HUP", "nginx")
        deadline = time.monotonic() + timeout
        while not set(_children(master)) - old:  # the new workers run, the old stop accepting
            if time.monotonic() > deadline:
                raise RuntimeError("nginx started no new workers after the reload")
            time.sleep(0.05)
        if self.ws_ports:
            self.control("signal", "USR1", "ws:*")
        while old & set(_children(master)):
            if time.monotonic() > deadline:
                raise RuntimeError("nginx's old workers did not exit in time after the reload")
            time.sleep(0.1)

    def all_ports(self) -> list[int]:
        bouncer = [self.bouncer.port] if self.bouncer is not None else []
        return [self.port, *self.http_ports, *self.ws_ports, *bouncer]

    def ready_urls(self) -> list[str]:
        """Every server process's readiness: the HTTP pool's through nginx, each daphne
        process's on its own port."""
        return [f"{self.url}/readyz", *(f"http://{HOST}:{p}/readyz" for p in self.ws_ports)]


def shape_env(env: dict[str, str] | None = None, shape: Shape | None = None) -> dict[str, str]:
    """The servers' environment: the caller's, DEBUG off unless set (no query log), the
    shape's address as PUBLIC_BASE_URL unless set, the local nginx trusted as the proxy, and
    the shape's PgBouncer, if any, as their database."""
    merged = dict(os.environ if env is None else env)
    if shape is not None and shape.bouncer is not None:
        merged["DATABASE_URL"] = shape.bouncer.url
        merged["DB_POOLER"] = "transaction"
    merged.setdefault("DJANGO_DEBUG", "false")
    # The emails' links: the shape's own address, unless the caller gave the public one.
    if shape is not None and not merged.get("PUBLIC_BASE_URL"):
        merged["PUBLIC_BASE_URL"] = shape.url
    # nginx is on this machine: the address it forwards (X-Real-IP) is the client's.
    merged.setdefault("TRUSTED_PROXIES", HOST)
    merged.setdefault("PYTHONUNBUFFERED", "1")
    return merged


def _still_starting(process: subprocess.Popen[bytes], deadline: float, waiting_for: str) -> None:
    """Raise when the shape exited or the deadline passed while waiting; else pause a moment."""
    if process.poll() is not None:
        raise RuntimeError(f"the production shape exited with {process.returncode}")
    if time.monotonic() > deadline:
        raise RuntimeError(f"the production shape did not {waiting_for} in time")
    time.sleep(0.1)


def wait_for_ports(ports: list[int], process: subprocess.Popen[bytes], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    waiting = list(ports)
    while waiting:
        with contextlib.suppress(OSError), socket.create_connection((HOST, waiting[0]), 0.2):
            waiting.pop(0)
            continue
        _still_starting(process, deadline, f"listen on {waiting}")


def wait_until_serving(url: str, process: subprocess.Popen[bytes], deadline: float) -> None:
    """Until ``url`` answers 200: the ports accept as soon as gunicorn's arbiter and nginx bind
    them, but the HTTP pool's workers are still loading Django then (seconds on a busy machine),
    and a request meanwhile waits for them; a process's ``/readyz`` answers 200 once its
    database, Redis and (daphne) live layer's subscription answer."""
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:  # noqa: S310  (our own http://)
                if answer.status == 200:
                    return
        except OSError:  # refused, reset, timed out, or an error status (HTTPError)
            pass
        _still_starting(process, deadline, f"answer {url}")


@contextlib.contextmanager
def running(
    shape: Shape,
    env: dict[str, str] | None = None,
    *,
    output: int | None = None,
    timeout: float = 60,
) -> Iterator[subprocess.Popen[bytes]]:
    """Run the shape under supervisord (its own process group) until every port accepts
    connections and every server process is ready (the HTTP pool's ``/readyz`` through nginx,
    each daphne process's on its port); stop it with SIGTERM (what Ctrl-C does) on the way
    out, SIGKILL once the drains had their time."""
    command = shape.supervisor_command()
    process = subprocess.Popen(  # noqa: S603
        command,
        cwd=ROOT,
        env=shape_env(env, shape),
        start_new_session=True,
        stdout=output,
        stderr=subprocess.STDOUT if output is not None else None,
    )
    try:
        deadline = time.monotonic() + timeout
        wait_for_ports(shape.all_ports(), process, timeout)
        for url in shape.ready_urls():
            wait_until_serving(url, process, deadline)
        yield process
    finally:
        stop(process, timeout=shape.drain_seconds + 20)


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                stat = (entry / "stat").read_text()
                if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
    return found


def stop(process: subprocess.Popen[bytes], timeout: float = 30) -> None:
    # supervisord starts each process in a process group of its own: note them, so none is
    # left behind if supervisord itself has to be killed.
    children = _children(process.pid)
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        for pid in [process.pid, *children]:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, signal.SIGKILL)
        process.wait()
