"""nginx's routing has one source, deploy/nginx.conf.template (project/ops/nginx.py): the
committed deploy/nginx.conf is its docker compose rendering, and the shape run on one machine
(project/ops/prodshape.py) renders the same template into a configuration nginx accepts."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest

from devtools import cluster
from devtools.launcher import free_port
from project.ops import balancer, nginx
from project.ops.prodshape import Shape, nginx_binary


def test_the_compose_conf_is_the_rendered_template() -> None:
    assert nginx.COMPOSE_CONF.read_text(encoding="utf-8") == nginx.compose_conf(), (
        "deploy/nginx.conf differs from deploy/nginx.conf.template: run "
        "`python -m project.ops.nginx`"
    )


def test_both_renderings_carry_the_whole_template() -> None:
    """Every line of the template but its placeholders is in both configurations."""
    template = [
        line.strip()
        for line in nginx.TEMPLATE.read_text(encoding="utf-8").splitlines()
        if line.strip() and "@" not in line
    ]
    compose = {line.strip() for line in nginx.compose_conf().splitlines()}
    shape = Shape(port=8080, http_ports=[9001], ws_ports=[9002, 9003], run_dir=Path("/run/x"))
    local = {line.strip() for line in shape.nginx_conf().splitlines()}
    assert [line for line in template if line not in compose] == []
    assert [line for line in template if line not in local] == []
    assert "server http:8000;" in compose and "server ws2:8000 max_fails=0;" in compose
    assert "server 127.0.0.1:9001;" in local and "server 127.0.0.1:9003 max_fails=0;" in local
    assert "listen 127.0.0.1:8080 backlog=4096;" in local and "listen 80;" in compose


def test_a_placeholder_missing_from_the_template_is_an_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    broken = tmp_path / "nginx.conf.template"
    broken.write_text("upstream http_pool {\n@HTTP_SERVERS@\n}\n", encoding="utf-8")
    monkeypatch.setattr(nginx, "TEMPLATE", broken)
    with pytest.raises(ValueError, match="@WS_SERVERS@"):
        nginx.compose_conf()


def test_nginx_accepts_the_shape_s_configuration(tmp_path: Path) -> None:
    shape = Shape(port=8080, http_ports=[9001], ws_ports=[9002, 9003], run_dir=tmp_path)
    shape.write()
    checked = subprocess.run(
        [
            nginx_binary(),
            "-t",
            "-e",
            "stderr",
            "-p",
            str(tmp_path),
            "-c",
            str(tmp_path / "nginx.conf"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stderr


def test_nginx_accepts_the_shape_s_configuration_with_its_hosts(tmp_path: Path) -> None:
    shape = Shape(
        port=8080,
        http_ports=[9001],
        ws_ports=[9002],
        run_dir=tmp_path,
        hosts=nginx.server_hosts("127.0.0.1, localhost,[::1],.scoutvote.example"),
    )
    assert "server_name 127.0.0.1 localhost [::1] .scoutvote.example;" in shape.nginx_conf()
    shape.write()
    command = [nginx_binary(), "-t", "-e", "stderr", "-p", str(tmp_path)]
    checked = subprocess.run(
        [*command, "-c", str(tmp_path / "nginx.conf")], capture_output=True, text=True, check=False
    )
    assert checked.returncode == 0, checked.stderr


def test_every_host_is_served_when_django_allows_every_one() -> None:
    assert nginx.server_hosts("") == nginx.server_hosts("*, example.com") == ()


def test_the_balancer_example_is_its_rendering() -> None:
    assert balancer.EXAMPLE.read_text(encoding="utf-8") == balancer.example_conf(), (
        "deploy/nginx-lb.conf differs from project/ops/balancer.py: run "
        "`python -m project.ops.balancer`"
    )


def test_nginx_accepts_the_balancer_s_configuration(tmp_path: Path) -> None:
    front = cluster.Balancer(
        nodes=["127.0.0.1:9001", "127.0.0.1:9002"],
        run_dir=tmp_path,
        port=8080,
        access_log=tmp_path / "access.log",
    )
    command = front.command()
    checked = subprocess.run(
        [command[0], "-t", *command[1:]], capture_output=True, text=True, check=False
    )
    assert checked.returncode == 0, checked.stderr


class _Echo(BaseHTTPRequestHandler):
    """Answers with the X-Real-IP nginx sent upstream."""

    def do_GET(self) -> None:
        body = (self.headers.get("X-Real-IP") or "").encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextlib.contextmanager
def nginx_before_echo(tmp_path: Path, **shape_fields: Any) -> Iterator[Shape]:
    """nginx with the shape's configuration in front of ``_Echo`` (every upstream)."""
    upstream = ThreadingHTTPServer(("127.0.0.1", 0), _Echo)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    port = int(upstream.server_address[1])
    shape = Shape(
        port=free_port(), http_ports=[port], ws_ports=[port], run_dir=tmp_path, **shape_fields
    )
    shape.write()
    server = subprocess.Popen(
        [nginx_binary(), "-e", "stderr", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")]
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", shape.port), 1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        yield shape
    finally:
        server.terminate()
        server.wait(10)
        upstream.shutdown()
        upstream.server_close()


def test_a_request_for_a_host_not_served_is_closed_unanswered_but_for_health(
    tmp_path: Path,
) -> None:
    with nginx_before_echo(tmp_path, hosts=("localhost", ".scoutvote.example")) as shape:
        url = f"http://127.0.0.1:{shape.port}"
        for host in ("localhost", "scoutvote.example", "www.scoutvote.example:8080"):
            answer = httpx.get(f"{url}/api/x", headers={"Host": host}, timeout=5)
            assert answer.status_code == 200, host
        for host in ("scanner.example", "127.0.0.1", "scoutvote.example.evil"):
            with pytest.raises(httpx.RemoteProtocolError):  # 444: closed, no answer
                httpx.get(f"{url}/api/x", headers={"Host": host}, timeout=5)
        # A balancer or orchestrator checks a node by its address.
        for path in ("/healthz", "/readyz"):
            answer = httpx.get(f"{url}{path}", headers={"Host": "10.0.0.5:8080"}, timeout=5)
            assert answer.status_code == 200, path


@pytest.mark.parametrize(
    ("balancers", "seen"), [((), "127.0.0.1"), (("127.0.0.1",), "203.0.113.7")]
)
def test_a_node_takes_the_client_address_only_from_its_balancers(
    tmp_path: Path, balancers: tuple[str, ...], seen: str
) -> None:
    """A node's nginx forwards the peer's address, unless the peer is a trusted balancer:
    then the address the balancer put in X-Real-IP (nginx's realip)."""
    upstream = ThreadingHTTPServer(("127.0.0.1", 0), _Echo)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    port = upstream.server_address[1]
    shape = Shape(
        port=free_port(),
        http_ports=[int(port)],
        ws_ports=[int(port)],
        run_dir=tmp_path,
        balancers=balancers,
    )
    shape.write()
    server = subprocess.Popen(
        [nginx_binary(), "-e", "stderr", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")]
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                answer = httpx.get(
                    f"http://127.0.0.1:{shape.port}/api/x",
                    headers={"X-Real-IP": "203.0.113.7"},
                    timeout=5,
                )
                break
            except httpx.ConnectError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        assert answer.status_code == 200
        assert answer.text == seen
    finally:
        server.terminate()
        server.wait(10)
        upstream.shutdown()
        upstream.server_close()
