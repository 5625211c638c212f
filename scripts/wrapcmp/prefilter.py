"""scripts/prefilter.c: which files may hold a site, and of which kind."""
import hashlib
import os
import shutil
import subprocess
import threading

from .util import Fatal, ROOT


SOURCE = os.path.join(ROOT, "scripts", "prefilter.c")


def prefilter_digest():
    with open(SOURCE, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:16]


def build_prefilter():
    """The prefilter binary, compiled on first use into the cache folder."""
    src = SOURCE
    digest = prefilter_digest()
    cache = os.environ.get("WRAPCMP_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "wrapcmp")
    exe = os.path.join(cache, "prefilter-" + digest)
    if os.path.exists(exe):
        return exe
    os.makedirs(cache, exist_ok=True)
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if not cc:
        raise Fatal("no C compiler to build scripts/prefilter.c (install gcc)")
    tmp = exe + ".%d" % os.getpid()
    p = subprocess.run([cc, "-O2", "-o", tmp, src], capture_output=True, text=True)
    if p.returncode != 0:
        raise Fatal("building the prefilter failed:\n%s" % p.stderr)
    os.rename(tmp, exe)
    return exe


def prefilter(tree, files, jobs, headers_read=False):
    """{file: the kinds of candidate it holds} for the files that may hold a site.
    Names go in and come out NUL-separated, so any file name passes through.
    headers_read: every file is read with headers (-t: a project's compile commands)."""
    exe = build_prefilter()
    n = max(1, min(jobs, 8))
    chunks = [files[i::n] for i in range(n)]
    outs = [None] * n
    procs = [subprocess.Popen([exe, "-k", "-0"] + (["-t"] if headers_read else []), cwd=tree, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
             for _ in chunks]
    threads = []
    for i, (p, chunk) in enumerate(zip(procs, chunks)):
        def feed(i=i, p=p, chunk=chunk):
            outs[i] = p.communicate(b"".join(os.fsencode(f) + b"\0" for f in chunk))[0]
        t = threading.Thread(target=feed)
        t.start()
        threads.append(t)
    for t in threads:
        t.join()
    for p in procs:
        if p.returncode != 0:
            raise Fatal("prefilter failed (exit %d)" % p.returncode)
    passed = {}
    for o in outs:
        fields = o.split(b"\0")
        for name, kinds in zip(fields[0::2], fields[1::2]):
            passed[os.fsdecode(name)] = kinds.decode()
    return {f: passed[f] for f in files if f in passed}
