"""Errors, logging and small file helpers shared by the wrapcmp commands."""
import os
import sys
import tempfile
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROG = ["wrapcmp"]


class Fatal(Exception):
    """An error the user can act on: printed as one clear message, exit 2."""


def set_prog(name):
    PROG[0] = name


def log(msg):
    sys.stderr.write("%s: %s\n" % (PROG[0], msg))
    sys.stderr.flush()


def env_flag(name):
    return os.environ.get(name, "") not in ("", "0", "no")


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def write_bytes(path, data):
    with open(path, "wb") as f:
        f.write(data)


def write_text(path, text):
    """Text with any file name in it kept byte for byte (surrogateescape)."""
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(text)


def make_private_dir(prefix, parent):
    return tempfile.mkdtemp(prefix=prefix, dir=parent)


class Beside:
    """fn() in a thread of its own, started now; result() waits for it and gives what it
    returned, or raises what it raised."""

    def __init__(self, fn):
        self.value, self.error = None, None
        self.thread = threading.Thread(target=self.run, args=(fn,), daemon=True)
        self.thread.start()

    def run(self, fn):
        try:
            self.value = fn()
        except BaseException as e:		# given to the caller by result()
            self.error = e

    def result(self):
        self.thread.join()
        if self.error is not None:
            raise self.error
        return self.value
