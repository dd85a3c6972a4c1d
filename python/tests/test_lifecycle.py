# Kokkos inside Python: started on first use or by initialize(), finalized at interpreter exit
# without a crash, kernels callable from several threads. Each case runs a fresh interpreter.
import subprocess
import sys
import textwrap


def run_python(code):
    """Runs code in a new interpreter (same PYTHONPATH) to its end; returns the finished process."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120)


def finished_cleanly(proc, last_line):
    assert proc.returncode == 0, f"exit status {proc.returncode}\nstdout: {proc.stdout}\nstderr: {proc.stderr}"
    assert proc.stdout.strip().splitlines()[-1] == last_line
    assert "Kokkos::finalize" not in proc.stderr and "Error" not in proc.stderr, proc.stderr


def test_import_alone_exits_cleanly():
    proc = run_python("""
        import portable_kernels as pk
        print(pk.is_initialized())
    """)
    finished_cleanly(proc, "False")  # importing starts nothing


def test_kernels_then_exit_finalizes_cleanly():
    proc = run_python("""
        import numpy as np, portable_kernels as pk
        for b in pk.backends():
            c = pk.add(np.ones(1000, np.float32), np.ones(1000, np.float32), backend=b)
            m = pk.matmul(np.ones((8, 8)), np.ones((8, 8)), backend=b)
            e = pk.sobel(np.ones((16, 16), np.float32), backend=b)
        print(pk.is_initialized(), float(c.sum()), float(m.sum()))
    """)
    finished_cleanly(proc, "True 2000.0 512.0")


def test_initialize_sets_the_openmp_threads():
    proc = run_python("""
        import portable_kernels as pk
        if "openmp" not in pk.backends():
            print(1)
        else:
            pk.initialize(threads=1)
            print(pk.devices("openmp")[0]["concurrency"])
    """)
    finished_cleanly(proc, "1")


def test_kernels_from_several_threads():
    # Kernels release the GIL and run one at a time; serial (and cuda) take calls from any thread.
    proc = run_python("""
        import numpy as np, portable_kernels as pk
        from concurrent.futures import ThreadPoolExecutor
        rng = np.random.default_rng(1)
        a = rng.standard_normal((64, 48))
        b = rng.standard_normal((48, 32))
        want = a @ b
        def work(i):
            return np.max(np.abs(pk.matmul(a, b, backend="serial") - want)) < 1e-12
        with ThreadPoolExecutor(8) as pool:
            print(all(pool.map(work, range(200))))
    """)
    finished_cleanly(proc, "True")


def test_openmp_from_another_thread():
    # Kokkos 3.x binds its OpenMP pool to the thread that started Kokkos: other threads are told so.
    proc = run_python("""
        import threading, numpy as np, portable_kernels as pk
        if "openmp" not in pk.backends():
            print("no openmp")
            raise SystemExit
        pk.add(np.ones(4), np.ones(4), backend="openmp")  # Kokkos starts on the main thread
        result = []
        def other():
            try:
                result.append(float(pk.add(np.ones(4), np.ones(4), backend="openmp").sum()))
            except RuntimeError as e:
                result.append(str(e))
        t = threading.Thread(target=other)
        t.start()
        t.join()
        print(result[0])
    """)
    last = proc.stdout.strip().splitlines()[-1]
    if last == "no openmp":
        return
    kokkos_major = int(pk_kokkos_version().split(".")[0])
    if kokkos_major < 4:
        assert "openmp kernels run only on the thread that started Kokkos" in last and "backend='serial'" in last
    else:
        assert last == "8.0"
    assert proc.returncode == 0, proc.stderr


def pk_kokkos_version():
    import portable_kernels
    return portable_kernels.kokkos_version


def test_started_on_a_worker_thread_then_exit():
    # Kokkos started by a thread that is gone by exit: finalized from the main thread, cleanly.
    proc = run_python("""
        import threading, numpy as np, portable_kernels as pk
        t = threading.Thread(target=lambda: pk.add(np.ones(4), np.ones(4)))
        t.start()
        t.join()
        print(float(pk.add(np.ones(4), np.ones(4), backend="serial").sum()))
    """)
    finished_cleanly(proc, "8.0")


def test_exit_while_a_daemon_thread_runs_kernels():
    # The atexit handler waits for the running kernel, then finalizes; the daemon thread's next
    # call raises RuntimeError (or the thread is frozen by the interpreter's shutdown). No crash.
    proc = run_python("""
        import threading, time, numpy as np, portable_kernels as pk
        a = np.ones((200, 200))
        def loop():
            while True:
                pk.matmul(a, a, backend="serial")
        threading.Thread(target=loop, daemon=True).start()
        time.sleep(0.5)
        print("exiting")
    """)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "exiting"
    assert "terminate" not in proc.stderr and "Segmentation" not in proc.stderr


def test_calls_after_finalize_raise():
    proc = run_python("""
        import atexit
        def late_call():  # registered before the module's handler, so it runs after it
            try:
                pk.add(np.ones(2), np.ones(2))
            except RuntimeError as e:
                print("RuntimeError:", e)
        atexit.register(late_call)
        import numpy as np, portable_kernels as pk
        pk.add(np.ones(2), np.ones(2))
    """)
    assert proc.returncode == 0, proc.stderr
    assert "RuntimeError: portable_kernels: Kokkos was finalized at interpreter exit" in proc.stdout


def test_a_forked_child_is_told_kokkos_runs_in_the_parent():
    proc = run_python("""
        import os, numpy as np, portable_kernels as pk
        pk.add(np.ones(2), np.ones(2))
        pid = os.fork()
        if pid == 0:
            try:
                pk.add(np.ones(2), np.ones(2))
                os._exit(1)
            except RuntimeError as e:
                os._exit(0 if "forked" in str(e) else 2)
        _, status = os.waitpid(pid, 0)
        print("child", os.waitstatus_to_exitcode(status), float(pk.add(np.ones(2), np.ones(2)).sum()))
    """)
    finished_cleanly(proc, "child 0 4.0")


def test_kokkos_start_up_is_quiet_and_keeps_stdout_for_results():
    # OMP_PROC_BIND unset and more threads than cores: Kokkos would warn (4 lines about binding on
    # stderr, oversubscription on stdout); pk starts it quietly and keeps stdout for results.
    import os
    env = {k: v for k, v in os.environ.items() if k != "OMP_PROC_BIND"}
    code = """
        import numpy as np, portable_kernels as pk
        pk.initialize(threads=64)
        print(pk.add(np.ones(3, np.float32), np.ones(3, np.float32)).tolist())
    """
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120,
                          env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "[2.0, 2.0, 2.0]\n", proc.stdout
    assert "OMP_PROC_BIND" not in proc.stderr, proc.stderr
