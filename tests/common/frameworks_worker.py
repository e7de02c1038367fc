#!/usr/bin/env python3
"""Runs padlab's generated scripts in a child process that keeps the frameworks imported.

The verify scripts (tests/codegen/, tests/models/, tests/files/) each start a `Worker`: this
file, run as a child on one Keras backend (fixed once keras is imported). The child reads one
job a line, a script's path and the arguments it gets as `sys.argv[1:]`, tab-separated; runs
it; and answers one JSON line: `ok` (it ran to the end), `out` (the end of what it printed),
and for a failure the exception (`error`) and where it was raised (`where`). A crash of the
child (a framework abort) is a failed result and a fresh child, not the end of the run.
"""

import contextlib
import io
import json
import os
import subprocess
import sys
import traceback

PASSED = "padlab self-check passed"


def serve():
    """The child: runs each script it is sent, answers one JSON line per script."""
    import warnings
    warnings.filterwarnings("ignore")
    for line in sys.stdin:
        script, *args = line.rstrip("\n").split("\t")
        out = io.StringIO()
        try:
            if "keras" in sys.modules:
                sys.modules["keras"].backend.clear_session()
            sys.argv = [script, *args]
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
                exec(compile(open(script).read(), script, "exec"), {"__name__": "__main__"})
            answer = {"ok": True, "out": out.getvalue()[-4000:]}
        except BaseException as e:  # noqa: BLE001 - every failure is a result
            answer = {"ok": False, "out": out.getvalue()[-1000:],
                      "error": f"{type(e).__name__}: {str(e)[:600]}",
                      "where": traceback.format_exc().splitlines()[-4:-1]}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


class Worker:
    """The parent's end: one child process on one Keras backend."""

    def __init__(self, keras_backend="tensorflow"):
        self.keras_backend = keras_backend
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", KERAS_BACKEND=keras_backend, JAX_PLATFORMS="cpu")
        self.proc = subprocess.Popen([sys.executable, os.path.abspath(__file__)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)

    def run(self, script, *args):
        """Runs `script` with `args` as its command line; its result (see the module's text)."""
        self.proc.stdin.write("\t".join([script, *args]) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if line:
            return json.loads(line)
        code = self.proc.wait()
        self.__init__(self.keras_backend)
        return {"ok": False, "out": "", "error": f"the worker crashed (a framework abort, exit {code})"}


def passed(result):
    """Whether the script ran to the end and printed padlab's pass line."""
    return result["ok"] and PASSED in result["out"]


def failure(result):
    """Why a result is not a pass: the exception, else the end of what the script printed."""
    return result.get("error") or "no pass line: " + result["out"][-300:]


if __name__ == "__main__":
    serve()
