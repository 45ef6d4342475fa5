"""``simulate --cluster`` and ``bench/bench_bots.py --cluster`` on a Dask ``LocalCluster`` of real
worker processes: the same output as a local run with the same seed, and clear errors for a bad
address, a scheduler without workers, workers with other code, and no Dask installed."""

from __future__ import annotations

import gc
import json
import re
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from distributed import Client, LocalCluster
from helpers import bench_script

from rednovember.analysis import cluster as cluster_mod
from rednovember.analysis import simulate
from rednovember.analysis.cluster import DEFAULT_TIMEOUT, ClusterError, connect, run_tasks
from rednovember.cli import main

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench" / "bench_bots.py"
# bench_bots.py's measurements of time: they differ from run to run wherever the games ran
TIMING = {"games_per_second", "decision_ms_mean", "decision_ms_p95", "decision_ms_max",
          "searched_ms_mean", "searched_ms_p95", "elapsed_s"}
HTTP = "127.0.0.1:0"  # the scheduler's web server on any free loopback port (8787 may be taken)


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    """A scheduler with two single-threaded worker processes on this machine (loopback only)."""
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=HTTP) as local:
        yield local.scheduler_address


def free_port() -> int:
    """A loopback port nothing listens on (bound and released at once)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def simulate_out(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    capsys.readouterr()
    assert main(["simulate", *argv, "--quiet"]) == 0
    return capsys.readouterr().out


def test_simulate_on_the_cluster_prints_what_a_local_run_prints(
        address: str, capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--games", "30", "--players", "3-4", "--bot", "random", "--seed", "11")
    here = simulate_out(capsys, *args, "--jobs", "1")
    there = simulate_out(capsys, *args, "--cluster", address)
    assert there == here
    assert "players bot" in here and "Red November — 30 games, 4 player(s)" in here
    as_json = simulate_out(capsys, *args, "--json", "--cluster", address)
    assert as_json == simulate_out(capsys, *args, "--json", "--jobs", "2")
    assert [r["games"] for r in json.loads(as_json)["runs"]] == [30, 30]


def test_thinking_bots_games_come_back_in_game_order(address: str) -> None:
    # one game per task (heuristic is not a fast bot): the two workers end them out of order
    spec = simulate.RunSpec(3, None, frozenset({"harder"}), "heuristic", 5)
    local = list(simulate.play_many([spec], 4, jobs=1))
    with connect(address) as client:
        remote = list(simulate.play_many([spec], 4, client=client))
        reports = simulate.run_specs([spec], 4, 1, show_progress=True, client=client)
    assert [r.game for r in remote] == [0, 1, 2, 3]
    assert remote == local
    assert reports == [simulate.summarize(spec, local)]


def test_run_tasks_unordered_returns_every_result_once(address: str) -> None:
    spec = simulate.RunSpec(4, None, frozenset(), "random", 2)
    tasks = [(spec, i) for i in range(40)]
    seen: list[int] = []
    with connect(address) as client:
        records = list(run_tasks(simulate.play_task, tasks, client=client, fast=True,
                                 ordered=False, progress=seen.append))
    assert sorted(r.game for r in records) == list(range(40))
    assert sum(seen) == 40 and len(seen) > 1  # fast games go in batches, one call per batch
    assert sorted(records) == sorted(simulate.play_games(spec, 40))




def bench_here(out: Path, *argv: str) -> dict[str, Any]:
    """bench_bots.py's games played in this process (--jobs 1)."""
    assert bench_script("bench_bots").main(["--out", str(out), *argv, "--jobs", "1"]) == 0
    saved: dict[str, Any] = json.loads(out.read_text())
    return saved


def bench_there(out: Path, address: str, *argv: str) -> dict[str, Any]:
    """bench_bots.py run as a script (as people do: its game function then travels to the
    workers by value), its games played on the cluster."""
    run = subprocess.run([sys.executable, str(BENCH), "--out", str(out), *argv,
                          "--cluster", address],
                         capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stderr
    saved: dict[str, Any] = json.loads(out.read_text())
    return saved


def without_timing(saved: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in cell.items() if k not in TIMING} for cell in saved["cells"]]


def test_bench_bots_on_the_cluster_gives_the_local_cells(address: str, tmp_path: Path) -> None:
    args = ("--bots", "random,heuristic", "--games", "random=12,heuristic=2", "--players", "3,4",
            "--seed", "4")
    here = bench_here(tmp_path / "here" / "bots.json", *args)
    there = bench_there(tmp_path / "there" / "bots.json", address, *args)
    assert without_timing(there) == without_timing(here)
    assert [(c["bot"], c["players"], c["games"]) for c in there["cells"]] == [
        ("random", 3, 12), ("random", 4, 12), ("heuristic", 3, 2), ("heuristic", 4, 2)]
    assert all(c["decisions"] > 0 for c in there["cells"])


def test_bench_bots_plan_on_the_cluster_keeps_every_game(address: str, tmp_path: Path) -> None:
    args = ("--bots", "random,heuristic", "--plan", "3=3,4@harder=2", "--seed", "8")
    here = bench_here(tmp_path / "here" / "bots.json", *args)
    there = bench_there(tmp_path / "there" / "bots.json", address, *args)
    assert without_timing(there) == without_timing(here)

    def games(side: str) -> dict[tuple[str, int], tuple[bool, str, int, int]]:
        rows = [json.loads(line) for line in
                (tmp_path / side / "bots.games.jsonl").read_text().splitlines()]
        return {(r["cell"], r["index"]): (r["result"]["won"], r["result"]["cause"],
                                          r["result"]["minutes"], len(r["result"]["times"]))
                for r in rows}

    assert games("there") == games("here")
    assert len(games("there")) == 2 * (3 + 2)


def test_a_bad_address_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    nobody = f"tcp://127.0.0.1:{free_port()}"
    assert main(["simulate", "--games", "2", "--cluster", nobody, "--cluster-timeout", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"rednovember simulate: error: no Dask scheduler answered at {nobody} "
                          "within 1 s") and err.count("\n") == 1
    assert "dask scheduler" in err and "Traceback" not in err
    assert main(["simulate", "--games", "2", "--cluster", "udp://127.0.0.1:8786"]) == 2
    err = capsys.readouterr().err
    assert "udp://127.0.0.1:8786 is not a scheduler address" in err and err.count("\n") == 1
    assert main(["simulate", "--cluster", nobody, "--cluster-timeout", "0"]) == 2
    assert "--cluster-timeout must be more than 0 seconds" in capsys.readouterr().err


def test_bench_bots_bad_address_is_a_one_line_error(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    nobody = f"tcp://127.0.0.1:{free_port()}"
    bench = bench_script("bench_bots")
    assert bench.main(["--out", str(tmp_path / "b.json"), "--bots", "random", "--games", "random=2",
                       "--players", "3", "--cluster", nobody, "--cluster-timeout", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"bench_bots.py: error: no Dask scheduler answered at {nobody}")
    assert err.count("\n") == 1 and not (tmp_path / "b.json").exists()


def refusal(address: str, timeout: float = DEFAULT_TIMEOUT) -> str:
    """What :func:`connect` says when it refuses the cluster at ``address``."""
    with pytest.raises(ClusterError) as refused, connect(address, timeout):
        pass
    return str(refused.value)


def test_a_scheduler_without_workers_is_refused() -> None:
    with LocalCluster(n_workers=0, processes=False, protocol="tcp", host="127.0.0.1",
                      dashboard_address=HTTP) as empty:
        said = refusal(empty.scheduler_address, timeout=0.5)
    assert said == (f"no worker joined the scheduler at {empty.scheduler_address} within 0.5 s; "
                    f"start one with `dask worker {empty.scheduler_address}`")


def test_workers_with_other_code_are_refused(address: str, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    # this side's package gets one edited rule module; the workers keep the installed one
    edited = tmp_path / "rednovember"
    shutil.copytree(cluster_mod.PACKAGE, edited,
                    ignore=shutil.ignore_patterns("__pycache__", "static", "*.so"))
    with (edited / "rules" / "state.py").open("a") as f:
        f.write("# an edit the workers do not have\n")
    monkeypatch.setattr(cluster_mod, "PACKAGE", edited)
    assert re.fullmatch(r"worker\(s\) tcp://127\.0\.0\.1:\d+, tcp://127\.0\.0\.1:\d+ run other "
                        r"rednovember code \(0\.1\.0:\w{16}\) than this machine \(0\.1\.0:\w{16}\): "
                        "install the same version on every worker", refusal(address))


def test_a_worker_without_rednovember_is_refused() -> None:
    # a real worker process whose Python cannot import rednovember (as on a machine without it)
    code = ("import sys; sys.modules['rednovember'] = None; "
            "from distributed.cli.dask_worker import main; main()")
    with LocalCluster(n_workers=0, processes=False, protocol="tcp", host="127.0.0.1",
                      dashboard_address=HTTP) as alone:
        worker = subprocess.Popen([sys.executable, "-c", code, alone.scheduler_address,
                                   "--nthreads", "1", "--no-nanny", "--host", "127.0.0.1"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            said = refusal(alone.scheduler_address, timeout=60)
        finally:
            worker.terminate()
            worker.wait(timeout=60)
    assert said.startswith("a worker cannot run rednovember (")
    assert "No module named 'rednovember" in said
    assert said.endswith("install the same version on every worker "
                         "(pip install 'rednovember[cluster]')")


def test_without_dask_the_error_says_what_to_install(capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` fails
    assert main(["simulate", "--games", "2", "--cluster", "tcp://127.0.0.1:8786"]) == 2
    assert capsys.readouterr().err == (
        "rednovember simulate: error: --cluster needs Dask's distributed scheduler: "
        "pip install 'rednovember[cluster]'\n")


def test_a_refused_address_leaves_no_half_made_client() -> None:
    # a half-made Client finalised later, at random, can deadlock the next Client's start
    # (cluster.connect's comment); connect finalises it before it reports the refusal
    nobody = f"tcp://127.0.0.1:{free_port()}"
    with pytest.raises(ClusterError, match="no Dask scheduler answered"), connect(nobody, 0.5):
        pass
    left = [o for o in gc.get_objects() if isinstance(o, Client)
            and getattr(o, "_start_arg", None) == nobody]
    assert left == []
