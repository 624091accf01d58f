"""``manage.py serve_prod`` (``make serve-prod``): the production shape on this machine.

nginx on ``--port`` routes ``/ws/`` to two daphne processes and everything else to the HTTP
pool (gunicorn, two gthread workers); supervisord runs them and starts again one that exits
(project/ops/prodshape.py), and ``supervisorctl`` restarts them one at a time.
With ``--pgbouncer`` (``PGBOUNCER=1 make serve-prod``) the app processes reach PostgreSQL through
a PgBouncer in transaction mode of their own. Ctrl-C or SIGTERM stops them all. Needs
PostgreSQL and Redis: the processes share the database and the live layer's groups.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from project.ops.prodshape import HTTP_SERVERS, Shape, shape_env


class Command(BaseCommand):
    help = "Serve the production shape: nginx, the HTTP pool and two daphne processes."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--port", type=int, default=8080, help="nginx's port (8080)")
        parser.add_argument("--http-server", choices=HTTP_SERVERS, default="gthread")
        parser.add_argument("--http-workers", type=int, default=2)
        parser.add_argument("--http-threads", type=int, default=16)
        parser.add_argument("--ws-processes", type=int, default=2)
        parser.add_argument(
            "--pgbouncer",
            action="store_true",
            help="the app processes reach PostgreSQL through a PgBouncer in transaction mode",
        )
        parser.add_argument(
            "--pgbouncer-pool-size",
            type=int,
            default=20,
            help="PgBouncer's server connections per database (20): within max_connections",
        )
        parser.add_argument(
            "--metrics-port",
            type=int,
            default=int(os.environ.get("METRICS_PORT") or 9490),
            help="the HTTP pool's metrics port; each daphne process's follows it (9490)",
        )
        parser.add_argument(
            "--run-dir",
            default=str(settings.BASE_DIR / ".run" / "serve-prod"),
            help="where nginx's and supervisord's configs, pids, logs and socket go",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not os.environ.get("DATABASE_URL") or not os.environ.get("REDIS_URL"):
            raise CommandError(
                "The production shape needs DATABASE_URL (PostgreSQL) and REDIS_URL: its "
                "processes share the database and the live layer's groups."
            )
        shape = Shape(
            port=options["port"],
            http_server=options["http_server"],
            http_workers=options["http_workers"],
            http_threads=options["http_threads"],
            ws_processes=options["ws_processes"],
            run_dir=Path(options["run_dir"]).resolve(),
            metrics_port=options["metrics_port"],
        )
        via = ""
        if options["pgbouncer"]:
            try:
                shape.with_pgbouncer(os.environ["DATABASE_URL"], options["pgbouncer_pool_size"])
            except ValueError as error:
                raise CommandError(str(error)) from error
            assert shape.bouncer is not None
            via = f"\nThe app's database: PgBouncer (transaction mode) on {shape.bouncer.port}."
        command = shape.supervisor_command()
        ctl = shlex.join(shape.ctl())
        self.stdout.write(
            self.style.SUCCESS(f"ScoutVote (production shape) on {shape.url}")
            + f"\nnginx -> HTTP pool ({options['http_server']}, {options['http_workers']} "
            f"workers) on {shape.http_ports}, /ws/ -> daphne on {shape.ws_ports}."
            f"{via}"
            + "\nMetrics: "
            + ", ".join(f"{name} {shape.metrics_url(name)}" for name in shape.metrics_ports)
            + f"\nConfigs and logs in {shape.run_dir}. supervisord starts again a process "
            "that exits; Ctrl-C stops everything (each daphne process drains its sockets "
            f"first).\nRolling restart: {ctl} restart ws:ws1 (then ws:ws2); the HTTP "
            f"pool's workers: {ctl} signal HUP http; nginx: {ctl} signal HUP nginx, then "
            f"{ctl} signal USR1 'ws:*' (the sockets move to its new workers). "
            f"Status: {ctl} status"
        )
        self.stdout.flush()
        # supervisord takes this process's place: Ctrl-C and SIGTERM reach it directly, and
        # it stops every process it started.
        os.execvpe(command[0], command, shape_env(shape=shape))  # noqa: S606
