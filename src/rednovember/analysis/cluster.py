"""Many games at once: a local process pool, or a Dask distributed cluster (``--cluster ADDRESS``).

``simulate`` (and ``report``) and ``bench/bench_bots.py`` play their games through
:func:`run_tasks`. A task is one game described by plain values (configuration, seeds, bot names)
and its result is plain values: a ``Game`` never crosses a process boundary (the compiled one does
not pickle, docs/engine.md). Results come back in task order whoever played them, so a run on a
cluster gives the same output as a local run with the same arguments.

On a cluster the scheduler (Dask's ``distributed``, the optional extra ``cluster``) hands the tasks
to its workers, which import the task's function from their own rednovember installation; a
function of a script run as ``__main__`` (``bench_bots.py``) is sent by value. :func:`connect`
refuses workers whose rednovember differs from this machine's (:func:`code_digest`): other code
would silently give other results. How to start a cluster: docs/cluster.md.
"""

from __future__ import annotations

import functools
import gc
import hashlib
import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from .. import __version__

if TYPE_CHECKING:
    from distributed import Client

T = TypeVar("T")
R = TypeVar("R")

INSTALL = "pip install 'rednovember[cluster]'"
DEFAULT_TIMEOUT = 10.0  # seconds to reach the scheduler, and then for a first worker
PACKAGE = Path(__file__).resolve().parents[1]
MAX_CHUNK = 64  # games of a fast bot per task


class ClusterError(RuntimeError):
    """The cluster cannot run the games (no Dask, no scheduler, no worker, other code there)."""


def code_digest(package: Path | None = None) -> str:
    """The version and a SHA-256 of every ``.py`` file and data file of the rednovember package:
    two machines with the same digest play every game alike."""
    root = package or PACKAGE
    h = hashlib.sha256()
    for path in sorted([*root.rglob("*.py"), *(root / "data").glob("*.json")]):
        h.update(path.relative_to(root).as_posix().encode() + b"\0")
        h.update(path.read_bytes())
    return f"{__version__}:{h.hexdigest()[:16]}"


@contextmanager
def connect(address: str, timeout: float = DEFAULT_TIMEOUT) -> Iterator[Client]:
    """A client of the Dask scheduler at ``address`` with at least one worker running this
    machine's rednovember; closed (its unfinished tasks cancelled) on leaving."""
    try:
        from distributed import Client
    except ImportError:
        raise ClusterError(f"--cluster needs Dask's distributed scheduler: {INSTALL}") from None
    failure = ""
    try:
        client = Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError):
        failure = (f"no Dask scheduler answered at {address} within {timeout:g} s; "
                   "start one there with `dask scheduler` (docs/cluster.md)")
    except ValueError as exc:
        failure = f"{address} is not a scheduler address ({exc}); e.g. tcp://HOST:8786"
    if failure:
        # The half-made Client lives on in the failed call's frames until the garbage collector
        # finalises it, and its __del__ waits for Dask's loop-runner lock: left to a random later
        # moment, that can fall inside the next Client's start, which holds the lock while its
        # new loop thread runs the collector (a deadlock, seen once in CI). Finalise it now.
        gc.collect()
        raise ClusterError(failure)
    with client:
        try:
            client.wait_for_workers(1, timeout=timeout)
        except TimeoutError:
            raise ClusterError(f"no worker joined the scheduler at {address} within "
                               f"{timeout:g} s; start one with `dask worker {address}`") from None
        check_workers(client)
        yield client


def check_workers(client: Client) -> None:
    """Refuse workers that cannot import rednovember or run other rednovember code."""
    here = code_digest()
    try:
        there: dict[str, str] = client.run(code_digest)
    except Exception as exc:  # Dask reports a worker's failed import as a bare Exception
        raise ClusterError(f"a worker cannot run rednovember ({exc}): install the same version "
                           f"on every worker ({INSTALL})") from None
    other = sorted(w for w, digest in there.items() if digest != here)
    if other:
        raise ClusterError(f"worker(s) {', '.join(other)} run other rednovember code "
                           f"({there[other[0]]}) than this machine ({here}): install the same "
                           "version on every worker")


def chunk_size(tasks: int, slots: int, fast: bool) -> int:
    """Tasks per batch: fast games (about a millisecond) in batches, slow ones one by one so every
    core stays busy to the end and the progress bar stays live."""
    return max(1, min(MAX_CHUNK, tasks // (slots * 8))) if fast else 1


def run_tasks(fn: Callable[[T], R], tasks: Sequence[T], *, jobs: int = 1,
              client: Client | None = None, fast: bool = False, ordered: bool = True,
              progress: Callable[[int], None] | None = None) -> Iterator[R]:
    """``fn`` of every task: in task order (``ordered``) or as they end; on the cluster of
    ``client``, else in ``jobs`` local worker processes (in this one for ``jobs`` ≤ 1).
    ``progress`` is called with the number of tasks just finished."""
    if client is not None:
        yield from _on_cluster(fn, tasks, client, fast, ordered, progress)
        return
    jobs = min(jobs, len(tasks))
    if jobs <= 1:
        for task in tasks:
            result = fn(task)
            if progress:
                progress(1)
            yield result
        return
    chunk = chunk_size(len(tasks), jobs, fast)
    with multiprocessing.Pool(jobs) as pool:
        play = pool.imap if ordered else pool.imap_unordered
        for result in play(fn, tasks, chunksize=chunk):
            if progress:
                progress(1)
            yield result


def _run_chunk(fn: Callable[[T], R], chunk: list[T]) -> list[R]:
    return [fn(task) for task in chunk]


def _on_cluster(fn: Callable[[T], R], tasks: Sequence[T], client: Client, fast: bool,
                ordered: bool, progress: Callable[[int], None] | None) -> Iterator[R]:
    from distributed import as_completed

    slots = max(1, sum(client.nthreads().values()))
    size = chunk_size(len(tasks), slots, fast)
    chunks = [list(tasks[i:i + size]) for i in range(0, len(tasks), size)]
    futures = client.map(functools.partial(_run_chunk, fn), chunks, pure=False)
    position = {future.key: i for i, future in enumerate(futures)}
    finished: dict[int, list[R]] = {}
    next_chunk = 0
    for future in as_completed(futures, loop=client.loop):
        results: list[R] = future.result()
        if progress:
            progress(len(results))
        if not ordered:
            yield from results
            continue
        finished[position[future.key]] = results
        while next_chunk in finished:  # hand out the finished prefix, in task order
            yield from finished.pop(next_chunk)
            next_chunk += 1


__all__ = ["ClusterError", "DEFAULT_TIMEOUT", "INSTALL", "check_workers", "chunk_size",
           "code_digest", "connect", "run_tasks"]
